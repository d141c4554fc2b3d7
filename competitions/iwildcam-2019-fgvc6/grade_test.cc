#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "Id,Category\n"
    "b6c7-11e8,0\n"
    "a1f0-11e8,19\n"
    "c3d2-11e8,0\n"
    "0e9a-11e8,1\n"
    "f00d-11e8,19\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(IWildCam2019GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(IWildCam2019GradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                   "f00d-11e8,19\n"),
            1.0);
  // The sample submission's index column is just an extra column.
  EXPECT_EQ(*Grade(",Id,Category\n7,f00d-11e8,19\n3,c3d2-11e8,0\n9,b6c7-11e8,0\n"
                   "1,a1f0-11e8,19\n2,0e9a-11e8,1\n"),
            1.0);
}

TEST(IWildCam2019GradeTest, HandComputedMacroF1) {
  // The sample submission (all 0): class 0 has tp 2, predicted 5, actual 2
  // -> F1 4/7; classes 1 and 19 score 0.
  EXPECT_DOUBLE_EQ(*Grade("Id,Category\n0e9a-11e8,0\na1f0-11e8,0\nb6c7-11e8,0\nc3d2-11e8,0\n"
                          "f00d-11e8,0\n"),
                   (4.0 / 7) / 3);
  // 0: tp 2, predicted 2, actual 2 -> 1; 1: tp 0, predicted 1, actual 1 -> 0;
  // 19: tp 1, predicted 1, actual 2 -> 2/3; 22: predicted once, never true -> 0.
  EXPECT_DOUBLE_EQ(*Grade("Id,Category\n0e9a-11e8,22\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                          "f00d-11e8,1\n"),
                   (1.0 + 0 + 2.0 / 3 + 0) / 4);
}

TEST(IWildCam2019GradeTest, RejectsInvalidSubmissions) {
  ExpectInvalid(Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,19\n"), "length");
  ExpectInvalid(Grade("Id,Predicted\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      "f00d-11e8,19\n"),
                "columns");
  ExpectInvalid(Grade("id,Category\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      "f00d-11e8,19\n"),
                "columns");
  ExpectInvalid(Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      "0e9a-11e8,19\n"),
                "mismatched");
  ExpectInvalid(Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      ",19\n"),
                "mismatched");
  ExpectInvalid(Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,19\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      "f00d-11e8,\n"),
                "int()");
  ExpectInvalid(Grade("Id,Category\n0e9a-11e8,1\na1f0-11e8,deer\nb6c7-11e8,0\nc3d2-11e8,0\n"
                      "f00d-11e8,19\n"),
                "int()");
  ExpectInvalid(Grade("Id,Category\n1,1\n2,19\n3,0\n4,0\n5,19\n"), "mismatched");
}

TEST(IWildCam2019GradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  absl::StatusOr<double> result = Grade("Id,Category\nx,1\n", "Id,Predicted\nx,1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
