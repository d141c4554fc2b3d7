#include <string>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using testing::ExpectInvalid;
using testing::GradeCsvText;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Three 101 x 101 images: a 202-pixel object, no salt, a 101-pixel object.
constexpr char kAnswers[] =
    "id,rle_mask\n"
    "b0a1,1 202\n"
    "a0f2,\n"
    "c9e3,5000 101\n";

absl::StatusOr<double> Grade(const std::string& submission) {
  return GradeCsvText(kId, submission, kAnswers);
}

TEST(TgsSaltGradeTest, RegisteredWithUpstreamMetricName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(TgsSaltGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("id,rle_mask\nc9e3,5000 101\nb0a1,1 202\na0f2,\n"), 1.0);
  EXPECT_EQ(*Grade("rle_mask,id\n1 202,b0a1\n,a0f2\n5000 101,c9e3\n"), 1.0);
}

TEST(TgsSaltGradeTest, HandComputedScore) {
  // b0a1: IoU 150 / 202 = 0.743 passes 0.5 .. 0.7: 0.5.
  // a0f2: salt predicted where there is none: 0.
  // c9e3: IoU 101 / 111 = 0.91 passes 0.5 .. 0.9: 0.9.
  // mean (0.5 + 0 + 0.9) / 3.
  EXPECT_DOUBLE_EQ(*Grade("id,rle_mask\nb0a1,1 150\na0f2,1 1\nc9e3,4995 111\n"),
                   (0.5 + 0.0 + 0.9) / 3);
}

TEST(TgsSaltGradeTest, SampleSubmissionIsValid) {
  // prepare.py's "1 1" everywhere: salt on the empty image scores 0, and
  // one pixel of b0a1 (IoU 1/202) or c9e3 (IoU 0) does too.
  EXPECT_EQ(*Grade("id,rle_mask\nb0a1,1 1\na0f2,1 1\nc9e3,1 1\n"), 0.0);
}

TEST(TgsSaltGradeTest, EmptyPredictionQuirk) {
  // Upstream's histogram counts an empty prediction as a full one: against a
  // true mask of 7000 of 10201 pixels, IoU 0.686 passes 0.5 .. 0.65 (0.4).
  EXPECT_DOUBLE_EQ(*GradeCsvText(kId, "id,rle_mask\nx1,\n", "id,rle_mask\nx1,1 7000\n"), 0.4);
}

TEST(TgsSaltGradeTest, WrongColumns) {
  ExpectInvalid(Grade("id,mask\nb0a1,1 1\na0f2,\nc9e3,\n"), "columns");
  ExpectInvalid(Grade("id,rle_mask,extra\nb0a1,1 1,1\na0f2,,1\nc9e3,,1\n"), "columns");
  ExpectInvalid(Grade("id\nb0a1\na0f2\nc9e3\n"), "columns");
}

TEST(TgsSaltGradeTest, WrongRowCount) {
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 202\na0f2,\n"), "rows");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 202\na0f2,\nc9e3,\nc9e3,\n"), "rows");
}

TEST(TgsSaltGradeTest, WrongIds) {
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 202\na0f2,\nzzzz,\n"), "ids");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 202\nb0a1,\nc9e3,\n"), "ids");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 202\n,\nc9e3,\n"), "ids");
}

TEST(TgsSaltGradeTest, NonTextValues) {
  // A column that is all numbers reads as numbers, which upstream rejects.
  ExpectInvalid(Grade("id,rle_mask\nb0a1,5\na0f2,7\nc9e3,9\n"), "text");
  ExpectInvalid(GradeCsvText(kId, "id,rle_mask\n12,1 1\n", "id,rle_mask\nx1,1 1\n"), "text");
}

TEST(TgsSaltGradeTest, MalformedRle) {
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 x\na0f2,\nc9e3,\n"), "not an integer");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,5 1 1 1\na0f2,\nc9e3,\n"), "sorted");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 5 3 1\na0f2,\nc9e3,\n"), "overlapping");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,0 5\na0f2,\nc9e3,\n"), "positive");
  ExpectInvalid(Grade("id,rle_mask\nb0a1,1 5 7 1 9\na0f2,\nc9e3,\n"), "odd");
}

TEST(TgsSaltGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> result = GradeCsvText(kId, "id,rle_mask\nx1,\n", "id,mask\nx1,\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
  result = GradeCsvText(kId, "id,rle_mask\nx1,\n", "id,rle_mask\nx1,0 1\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
