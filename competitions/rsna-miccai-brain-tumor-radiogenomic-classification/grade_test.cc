#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: zero-padded ids, 0/1 labels.
constexpr std::string_view kAnswers =
    "BraTS21ID,MGMT_value\n"
    "00000,1\n"
    "00002,0\n"
    "00012,1\n"
    "00107,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(RsnaMiccaiGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RsnaMiccaiGradeTest, PerfectRankingInAnyRowOrderWithOrWithoutPadding) {
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n00107,0.2\n00012,0.8\n00002,0.1\n00000,0.9\n"), 1.0);
  // pandas parses both files' ids as integers, so the padding does not matter.
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n107,0.2\n12,0.8\n2,0.1\n0,0.9\n"), 1.0);
  // The sample submission's constant 0.5.
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n00000,0.5\n00002,0.5\n00012,0.5\n00107,0.5\n"), 0.5);
}

TEST(RsnaMiccaiGradeTest, HandComputedAreas) {
  // Positives 0=0.4, 12=0.6; negatives 2=0.5, 107=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n00000,0.4\n00002,0.5\n00012,0.6\n00107,0.1\n"), 0.75);
  // A tie counts half: (0.5 + 1 + 1 + 1) / 4.
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n00000,0.5\n00002,0.5\n00012,0.6\n00107,0.1\n"), 0.875);
  EXPECT_EQ(*Grade("BraTS21ID,MGMT_value\n00000,0\n00002,1\n00012,0\n00107,1\n"), 0.0);
}

TEST(RsnaMiccaiGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,x\n00012,0.8\n00107,0.2\n"),
                "to be numeric");
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,1.5\n00002,0.1\n00012,0.8\n00107,0.2\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,-0.1\n00012,0.8\n00107,0.2\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,\n00012,0.8\n00107,0.2\n"),
                "contains NaN");
}

TEST(RsnaMiccaiGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("id,MGMT_value\n00000,0.9\n"), "should have an BraTS21ID column");
  ExpectInvalid(Grade("BraTS21ID,score\n00000,0.9\n"), "should have a MGMT_value column");
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,0.1\n00012,0.8\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an BraTS21ID column");
}

TEST(RsnaMiccaiGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,0.1\n00012,0.8\n00108,0.2\n"),
                "same BraTS21ID values");
  ExpectInvalid(Grade("BraTS21ID,MGMT_value\n00000,0.9\n00000,0.1\n00012,0.8\n00107,0.2\n"),
                "same BraTS21ID values");
}

TEST(RsnaMiccaiGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"BraTS21ID,MGMT_value\n00000,1\n00002,1\n",
                                   "BraTS21ID,label\n00000,1\n00002,0\n"}) {
    absl::StatusOr<double> result = Grade("BraTS21ID,MGMT_value\n00000,0.9\n00002,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
