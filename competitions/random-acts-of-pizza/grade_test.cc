#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Reddit post ids; t3_a and t3_c got a pizza.
constexpr std::string_view kAnswers =
    "request_id,requester_received_pizza\n"
    "t3_i8iy4,1\n"
    "t3_1mfqi0,0\n"
    "t3_lclka,1\n"
    "t3_w5491,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

// A submission scoring t3_i8iy4, t3_1mfqi0, t3_lclka, t3_w5491 (CSV fields).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return "request_id,requester_received_pizza\nt3_i8iy4," + std::string(a) + "\nt3_1mfqi0," +
         std::string(b) + "\nt3_lclka," + std::string(c) + "\nt3_w5491," + std::string(d) + "\n";
}

using testing::ExpectInvalid;

TEST(RandomActsOfPizzaGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RandomActsOfPizzaGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(*Grade("requester_received_pizza,request_id,extra\n0.3,t3_w5491,x\n0.31,t3_lclka,y\n"
                   "0,t3_1mfqi0,z\n1,t3_i8iy4,w\n"),
            1.0);
  EXPECT_EQ(*Grade(kAnswers), 1.0);
}

TEST(RandomActsOfPizzaGradeTest, HandComputedAreas) {
  // Positives 0.4, 0.6; negatives 0.5, 0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // One tie (0.5 vs 0.5) counts half: 3.5 / 4.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.6", "0.1")), 0.875);
  // Positives 0.2, 0.3 against negatives 0.25, 0.9: 1 of 4.
  EXPECT_EQ(*Grade(Submission("0.2", "0.25", "0.3", "0.9")), 0.25);
  // The sample submission: every score 0.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("False", "True", "False", "True")), 0.0);
}

TEST(RandomActsOfPizzaGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "yes", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1.01", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-1e-9", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("-inf", "0", "1", "0")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("NaN", "NaN", "NaN", "NaN")), "contains NaN");
}

TEST(RandomActsOfPizzaGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("id,requester_received_pizza\nt3_i8iy4,0.5\n"),
                "should have an request_id column");
  ExpectInvalid(Grade("request_id,pizza\nt3_i8iy4,0.5\n"),
                "should have a requester_received_pizza column");
  ExpectInvalid(Grade("request_id,requester_received_pizza\nt3_i8iy4,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(Submission("0.9", "0.1", "0.8", "0.2") + "t3_extra,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an request_id column");
}

TEST(RandomActsOfPizzaGradeTest, IdsMustMatch) {
  std::string unknown = Submission("0.9", "0.1", "0.8", "0.2");
  unknown.replace(unknown.find("t3_w5491"), 8, "t3_xxxxx");
  ExpectInvalid(Grade(unknown), "same request_id values");
  std::string repeated = Submission("0.9", "0.1", "0.8", "0.2");
  repeated.replace(repeated.find("t3_w5491"), 8, "t3_i8iy4");
  ExpectInvalid(Grade(repeated), "same request_id values");
  std::string blank = Submission("0.9", "0.1", "0.8", "0.2");
  blank.replace(blank.find("t3_lclka"), 8, "");
  ExpectInvalid(Grade(blank), "same request_id values");
  // Ids are case-sensitive.
  std::string upper = Submission("0.9", "0.1", "0.8", "0.2");
  upper.replace(upper.find("t3_lclka"), 8, "T3_LCLKA");
  ExpectInvalid(Grade(upper), "same request_id values");
}

TEST(RandomActsOfPizzaGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = "request_id,requester_received_pizza\na,0.9\nb,0.1\n";
  for (std::string_view answers :
       {"request_id,requester_received_pizza\na,1\nb,1\n", "request_id,label\na,1\nb,0\n",
        "id,requester_received_pizza\na,1\nb,0\n",
        "request_id,requester_received_pizza\na,1\nb,maybe\n"}) {
    absl::StatusOr<double> result = Grade(submission, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
