#include <cmath>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "id,value\n"
    "10_1_1,1.0\n"
    "10_1_2,0.5\n"
    "2_1_1,0.0\n"
    "2_1_2,1.0\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(DenoisingGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(DenoisingGradeTest, PerfectInAnyOrder) {
  EXPECT_EQ(*Grade("id,value\n2_1_2,1\n2_1_1,0\n10_1_2,0.5\n10_1_1,1\n"), 0.0);
  // Extra columns are ignored.
  EXPECT_EQ(*Grade("x,value,id\n7,1.0,10_1_1\n7,0.5,10_1_2\n7,0.0,2_1_1\n7,1.0,2_1_2\n"), 0.0);
}

TEST(DenoisingGradeTest, HandComputedScores) {
  // The sample submission's constant 1: errors 0, 0.5, 1, 0.
  EXPECT_DOUBLE_EQ(*Grade("id,value\n10_1_1,1\n10_1_2,1\n2_1_1,1\n2_1_2,1\n"),
                   std::sqrt((0.25 + 1.0) / 4.0));
  // Booleans count as 0/1.
  EXPECT_DOUBLE_EQ(*Grade("id,value\n10_1_1,True\n10_1_2,False\n2_1_1,False\n2_1_2,True\n"),
                   std::sqrt(0.25 / 4.0));
}

TEST(DenoisingGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("pixel,value\n10_1_1,1\n"), "must have an 'id' column");
  ExpectInvalid(Grade("id,val\n10_1_1,1\n"), "must have a 'value' column");
  ExpectInvalid(Grade(""), "must have an 'id' column");
  // Text values fail astype(float) (before the row count is checked).
  ExpectInvalid(Grade("id,value\n10_1_1,dark\n"), "float values");
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,1\n2_1_1,1\n"), "to have 4 rows, but got 3");
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,1\n2_1_1,1\n2_1_3,1\n"), "same 'id' values");
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,1\n2_1_1,1\n2_1_1,1\n"), "same 'id' values");
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,1\n2_1_1,1\n,1\n"), "same 'id' values");
  // NaN and infinity pass astype(float) but not scikit-learn.
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,\n2_1_1,1\n2_1_2,1\n"), "root_mean_squared_error");
  ExpectInvalid(Grade("id,value\n10_1_1,1\n10_1_2,inf\n2_1_1,1\n2_1_2,1\n"), "root_mean_squared_error");
}

TEST(DenoisingGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,label\n10_1_1,1\n", "name,value\n10_1_1,1\n",
                                   "id,value\n10_1_1,dark\n", "id,value\n10_1_1,\n"}) {
    absl::StatusOr<double> result = Grade("id,value\n10_1_1,1\n", answers);
    EXPECT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
