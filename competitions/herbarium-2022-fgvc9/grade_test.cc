#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The grading logic is shared with herbarium-2020-fgvc7 (id_label_macro_f1,
// tested there in full); these cases pin this competition's registration
// and columns.
constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers = "Id,Predicted\n2,11\n0,4\n1,4\n3,15504\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(Herbarium2022GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(Herbarium2022GradeTest, Scores) {
  EXPECT_EQ(*Grade("Id,Predicted\n3,15504\n2,11\n1,4\n0,4\n"), 1.0);
  // 4: tp 1, predicted 1, actual 2 -> 2/3; 11: 1; 15504: tp 0, predicted 1,
  // actual 1 -> 0; 5: 0. Mean over four labels: (2/3 + 1) / 4.
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\n0,4\n1,15504\n2,11\n3,5\n"), (2.0 / 3 + 1) / 4);
  // The sample submission's constant 42 matches nothing.
  EXPECT_EQ(*Grade("Id,Predicted\n0,42\n1,42\n2,42\n3,42\n"), 0.0);
  // Float labels are int()-truncated, as upstream's int(y) does.
  EXPECT_EQ(*Grade("Id,Predicted\n0,4.0\n1,4.5\n2,11\n3,15504\n"), 1.0);
}

TEST(Herbarium2022GradeTest, RejectsInvalidSubmissions) {
  testing::ExpectInvalid(Grade("Id,Predicted\n0,4\n1,4\n2,11\n"), "length");
  testing::ExpectInvalid(Grade("Id,Category\n0,4\n1,4\n2,11\n3,1\n"), "columns");
  testing::ExpectInvalid(Grade("Image,Predicted\n0,4\n1,4\n2,11\n3,1\n"), "columns");
  testing::ExpectInvalid(Grade("Id,Predicted\n0,4\n1,4\n2,11\n2,1\n"), "mismatched");
  testing::ExpectInvalid(Grade("Id,Predicted\n0,4\n1,4\n2,11\n7,1\n"), "mismatched");
  testing::ExpectInvalid(Grade("Id,Predicted\n0,4\n1,4\n2,11\n3,\n"), "int()");
  testing::ExpectInvalid(Grade("Id,Predicted\n0,4\n1,4\n2,11\n3,a\n"), "int()");
}

}  // namespace
}  // namespace mlebench::grade_test
