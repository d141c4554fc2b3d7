#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// private/test.csv: page a has two characters, page b one, page c none.
constexpr std::string_view kAnswers =
    "image_id,labels\n"
    "100241706_00004_2,U+306F 10 10 20 20 U+304C 50 50 10 10\n"
    "umgy001-009,U+3044 0 0 5 5\n"
    "hnsd004-026,\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(KuzushijiGradeTest, PerfectSubmissionScoresOne) {
  // The gold submission's shape: each box's corner + 1, in any row order.
  absl::StatusOr<double> score = Grade(
      "image_id,labels\n"
      "hnsd004-026,\n"
      "umgy001-009,U+3044 1 1\n"
      "100241706_00004_2,U+306F 11 11 U+304C 51 51\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 1.0);
}

TEST(KuzushijiGradeTest, PartialSubmissionHasHandComputedF1) {
  // tp 1 (U+306F), fp 2 (U+304C outside its box, and the point on the empty
  // page), fn 2: precision 1/3, recall 1/3, F1 1/3.
  absl::StatusOr<double> score = Grade(
      "image_id,labels\n"
      "100241706_00004_2,U+306F 15 15 U+304C 70 70\n"
      "umgy001-009,\n"
      "hnsd004-026,U+3044 1 1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 1.0 / 3, 1e-15);
}

TEST(KuzushijiGradeTest, SampleSubmissionScoresZero) {
  absl::StatusOr<double> score = Grade(
      "image_id,labels\n"
      "100241706_00004_2,U+003F 1 1 U+FF2F 2 2\n"
      "umgy001-009,U+003F 1 1 U+FF2F 2 2\n"
      "hnsd004-026,U+003F 1 1 U+FF2F 2 2\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 0);
}

TEST(KuzushijiGradeTest, WrongShapeIsInvalid) {
  testing::ExpectInvalid(Grade("image_id,labels\numgy001-009,\n"), "expected 3 rows");
  testing::ExpectInvalid(Grade("image_id,prediction\na,\nb,\nc,\n"), "'image_id' and 'labels'");
  testing::ExpectInvalid(Grade("id,labels\na,\nb,\nc,\n"), "'image_id' and 'labels'");
}

TEST(KuzushijiGradeTest, WrongIdsAreInvalid) {
  testing::ExpectInvalid(Grade("image_id,labels\n"
                               "100241706_00004_2,\numgy001-009,\nother,\n"),
                         "don't match");
  testing::ExpectInvalid(Grade("image_id,labels\n"
                               "100241706_00004_2,\numgy001-009,\numgy001-009,\n"),
                         "don't match");
  testing::ExpectInvalid(Grade("image_id,labels\n"
                               "100241706_00004_2,\numgy001-009,\n,\n"),
                         "don't match");
}

TEST(KuzushijiGradeTest, MalformedPredictionsAreInvalid) {
  const std::string ids[] = {"100241706_00004_2", "umgy001-009", "hnsd004-026"};
  for (const char* labels : {"U+3044 1", "U+3044 x 1", "U+3044 1 y", "U+3044  1 1", "U+3044 1 1 "}) {
    SCOPED_TRACE(labels);
    testing::ExpectInvalid(Grade("image_id,labels\n" + ids[0] + ",\n" + ids[1] + "," + labels +
                                 "\n" + ids[2] + ",\n"),
                           "Malformed prediction string");
  }
  // A labels column pandas reads as numbers has no str.split.
  testing::ExpectInvalid(Grade("image_id,labels\n" + ids[0] + ",1\n" + ids[1] + ",2\n" + ids[2] + ",3\n"),
                         "not a prediction string");
}

TEST(KuzushijiGradeTest, PythonFloatSpellingsAreAccepted) {
  absl::StatusOr<double> score = Grade(
      "image_id,labels\n"
      "100241706_00004_2,U+306F 1_1 11.5 U+304C nan 51\n"
      "umgy001-009,U+3044 1e0 +1\n"
      "hnsd004-026,\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 2 * (2.0 / 3) * (2.0 / 3) / (4.0 / 3), 1e-15);  // tp 2, fp 1, fn 1
}

TEST(KuzushijiGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> score = testing::GradeCsvText(kId, "image_id,labels\na,A 1 1\n",
                                                       "image_id,labels\na,A 1 1 2\n");
  ASSERT_FALSE(score.ok());
  EXPECT_FALSE(IsInvalidSubmission(score.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
