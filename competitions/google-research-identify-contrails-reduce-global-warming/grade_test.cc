#include <cmath>
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

// Three 4 x 4 images; record 100 has no contrail ("-", as prepare writes it).
constexpr char kAnswers[] =
    "record_id,encoded_pixels,height,width\n"
    "300,1 4,4,4\n"
    "100,-,4,4\n"
    "200,5 3 12 2,4,4\n";

absl::StatusOr<double> Grade(const std::string& submission, const char* answers = kAnswers) {
  return GradeCsvText(kId, submission, answers);
}

TEST(ContrailsGradeTest, RegisteredWithUpstreamMetricName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(ContrailsGradeTest, PerfectSubmissionInAnyOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("record_id,encoded_pixels\n300,1 4\n100,-\n200,5 3 12 2\n"), 1.0);
  EXPECT_EQ(*Grade("encoded_pixels,note,record_id\n5 3 12 2,x,200\n ,y,100\n1 4,z,300\n"), 1.0);
}

TEST(ContrailsGradeTest, HandComputedGlobalScore) {
  // 300: |p| = 4, |t| = 4, overlap 2. 200: |p| = 3, |t| = 5, overlap 3.
  // Global: 2 * 5 / 16 (the per-image mean would be (0.5 + 0.75 + NaN) ...).
  EXPECT_DOUBLE_EQ(*Grade("record_id,encoded_pixels\n100,-\n200,5 3\n300,1 2 9 2\n"), 10.0 / 16);
  // A predicted pixel on the empty image only adds to the denominator.
  EXPECT_DOUBLE_EQ(*Grade("record_id,encoded_pixels\n100,16 1\n200,5 3 12 2\n300,1 4\n"),
                   18.0 / 19);
}

TEST(ContrailsGradeTest, SampleSubmissionStyleIsValid) {
  // prepare.py's random "1 3 10 5" / "-"; runs past the image are clipped.
  EXPECT_DOUBLE_EQ(*Grade("record_id,encoded_pixels,height,width\n300,1 3 10 5,4,4\n"
                          "100,-,4,4\n200,1 3 10 5,4,4\n"),
                   2.0 * (3 + 2) / (8 + 8 + 4 + 5));
}

TEST(ContrailsGradeTest, NothingSetAnywhereIsNan) {
  const char* empty_answers = "record_id,encoded_pixels,height,width\n1,-,4,4\n2,-,4,4\n";
  EXPECT_TRUE(std::isnan(*Grade("record_id,encoded_pixels\n1,-\n2,-\n", empty_answers)));
}

TEST(ContrailsGradeTest, MissingColumns) {
  ExpectInvalid(Grade("id,encoded_pixels\n300,-\n100,-\n200,-\n"), "record_id");
  ExpectInvalid(Grade("record_id,rle\n300,-\n100,-\n200,-\n"), "encoded_pixels");
}

TEST(ContrailsGradeTest, WrongRowCount) {
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\n"), "rows");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\n200,-\n400,-\n"), "rows");
}

TEST(ContrailsGradeTest, WrongOrDuplicateIds) {
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\n201,-\n"), "record_id");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\n100,-\n"), "record_id");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\n,-\n"), "record_id");
  // A text id makes the column text, and text never equals the answers' ints.
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,-\n100,-\nabc,-\n"), "record_id");
}

TEST(ContrailsGradeTest, IdsCompareByValue) {
  // numpy compares 200.0 == 200.
  EXPECT_EQ(*Grade("record_id,encoded_pixels\n300.0,1 4\n100,-\n200,5 3 12 2\n"), 1.0);
}

TEST(ContrailsGradeTest, EmptyFieldIsNotAString) {
  // pandas reads an empty field as NaN; rle_decode asserts a str.
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1 4\n100,\n200,5 3 12 2\n"), "string");
  // A column of numbers is not text either.
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1\n100,2\n200,3\n"), "string");
}

TEST(ContrailsGradeTest, MalformedRle) {
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1 4 1 2\n100,-\n200,-\n"), "300");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,5 2 1 2\n100,-\n200,-\n"), "300");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1 x\n100,-\n200,-\n"), "300");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,0 2\n100,-\n200,-\n"), "300");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1 2 5 1 9\n100,-\n200,-\n"), "300");
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,1 2 2 2\n100,-\n200,-\n"), "300");
  // "--" is not the empty marker.
  ExpectInvalid(Grade("record_id,encoded_pixels\n300,--\n100,-\n200,-\n"), "300");
}

TEST(ContrailsGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> bad_columns =
      Grade("record_id,encoded_pixels\n1,-\n", "record_id,encoded_pixels,height\n1,-,4\n");
  ASSERT_FALSE(bad_columns.ok());
  EXPECT_FALSE(IsInvalidSubmission(bad_columns.status()));
  absl::StatusOr<double> ragged = Grade("record_id,encoded_pixels\n1,-\n2,-\n",
                                        "record_id,encoded_pixels,height,width\n1,-,4,4\n2,-,4,5\n");
  ASSERT_FALSE(ragged.ok());
  EXPECT_FALSE(IsInvalidSubmission(ragged.status()));
  absl::StatusOr<double> bad_rle = Grade("record_id,encoded_pixels\n1,-\n",
                                         "record_id,encoded_pixels,height,width\n1,2 1 1 1,4,4\n");
  ASSERT_FALSE(bad_rle.ok());
  EXPECT_FALSE(IsInvalidSubmission(bad_rle.status()));
}

}  // namespace
}  // namespace mlebench::grade_test
