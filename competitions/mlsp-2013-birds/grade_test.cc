#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: Id = rec_id * 100 + species, 0/1 presence.
constexpr std::string_view kAnswers =
    "Id,Probability\n"
    "300,1\n"
    "301,0\n"
    "1200,0\n"
    "1201,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(MlspBirdsGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(MlspBirdsGradeTest, PooledAucOverAllPairs) {
  EXPECT_EQ(*Grade("Id,Probability\n1201,0.7\n1200,0.2\n301,0.1\n300,0.9\n"), 1.0);
  // The sample submission's constant 0.
  EXPECT_EQ(*Grade("Id,Probability\n300,0\n301,0\n1200,0\n1201,0\n"), 0.5);
  // Positives 300=0.4, 1201=0.6; negatives 301=0.5, 1200=0.1: 3 of 4 pairs.
  EXPECT_EQ(*Grade("Id,Probability\n300,0.4\n301,0.5\n1200,0.1\n1201,0.6\n"), 0.75);
  // A tie counts half.
  EXPECT_EQ(*Grade("Id,Probability\n300,0.5\n301,0.5\n1200,0.1\n1201,0.6\n"), 0.875);
}

TEST(MlspBirdsGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("Id,Probability\n300,0.4\n301,x\n1200,0.1\n1201,0.6\n"), "to be numeric");
  ExpectInvalid(Grade("Id,Probability\n300,1.4\n301,0.5\n1200,0.1\n1201,0.6\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("Id,Probability\n300,0.4\n301,\n1200,0.1\n1201,0.6\n"), "contains NaN");
  ExpectInvalid(Grade("rec_id,Probability\n300,0.4\n"), "should have an Id column");
  ExpectInvalid(Grade("Id,p\n300,0.4\n"), "should have a Probability column");
  ExpectInvalid(Grade("Id,Probability\n300,0.4\n301,0.5\n1200,0.1\n"), "same number of rows");
  ExpectInvalid(Grade("Id,Probability\n300,0.4\n301,0.5\n1200,0.1\n1202,0.6\n"), "same Id values");
  ExpectInvalid(Grade("Id,Probability\n300,0.4\n300,0.5\n1200,0.1\n1201,0.6\n"), "same Id values");
}

TEST(MlspBirdsGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result = Grade("Id,Probability\n300,0.9\n301,0.1\n",
                                        "Id,Probability\n300,1\n301,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
