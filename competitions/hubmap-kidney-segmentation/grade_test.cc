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

// Three images of 10 x 20, 5 x 4 and 3 x 3 pixels (width x height). Every
// true mask is non-empty: upstream never fills missing answers, so an empty
// encoding makes its grader raise (an internal error here, tested below).
constexpr char kAnswers[] =
    "id,encoding,width_pixels,height_pixels\n"
    "b2dc8411c,1 10 50 10,10,20\n"
    "0486052bb,3 2,5,4\n"
    "aaa6a05cc,2 3,3,3\n";

absl::StatusOr<double> Grade(const std::string& submission) {
  return GradeCsvText(kId, submission, kAnswers);
}

TEST(HubmapGradeTest, RegisteredWithUpstreamMetricName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HubmapGradeTest, PerfectSubmissionInAnyOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("id,predicted\nb2dc8411c,1 10 50 10\n0486052bb,3 2\naaa6a05cc,2 3\n"), 1.0);
  EXPECT_EQ(*Grade("predicted,id,note\n2 3,aaa6a05cc,x\n1 10 50 10,b2dc8411c,y\n3 2,0486052bb,z\n"),
            1.0);
}

TEST(HubmapGradeTest, HandComputedScore) {
  // b2dc8411c: |p| = 15, |t| = 20, overlap 5 + 5: 20 / 35.
  // 0486052bb: no overlap: 0. aaa6a05cc: |p| = 9, |t| = 3: 6 / 12.
  EXPECT_DOUBLE_EQ(*Grade("id,predicted\nb2dc8411c,6 10 55 5\n0486052bb,1 1\naaa6a05cc,1 9\n"),
                   (20.0 / 35 + 0.0 + 0.5) / 3);
}

TEST(HubmapGradeTest, SampleSubmissionIsValid) {
  // prepare.py's empty predictions score 0 against non-empty masks.
  EXPECT_EQ(*Grade("id,predicted\nb2dc8411c,\n0486052bb,\naaa6a05cc,\n"), 0.0);
}

TEST(HubmapGradeTest, RunsPastTheImageAreClipped) {
  EXPECT_DOUBLE_EQ(*Grade("id,predicted\nb2dc8411c,1 10 50 10\n0486052bb,\naaa6a05cc,2 100\n"),
                   (1.0 + 0.0 + 6.0 / 11) / 3);
}

TEST(HubmapGradeTest, MissingColumns) {
  ExpectInvalid(Grade("image,predicted\nb2dc8411c,\n0486052bb,\naaa6a05cc,\n"), "'id'");
  ExpectInvalid(Grade("id,encoding\nb2dc8411c,\n0486052bb,\naaa6a05cc,\n"), "'predicted'");
}

TEST(HubmapGradeTest, WrongRowsOrIds) {
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,\n0486052bb,\n"), "rows");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,\n0486052bb,\naaa6a05cc,\naaa6a05cc,\n"), "rows");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,\n0486052bb,\nzzz,\n"), "different id");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,\n0486052bb,\n0486052bb,\n"), "different id");
}

TEST(HubmapGradeTest, PredictionsMustBeRleText) {
  // A column of numbers reads as numbers; rle_decode asserts a str.
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,5\n0486052bb,7\naaa6a05cc,1\n"), "RLE string");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,1 x\n0486052bb,\naaa6a05cc,\n"), "not an integer");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,9 1 1 1\n0486052bb,\naaa6a05cc,\n"), "sorted");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,1 5 2 1\n0486052bb,\naaa6a05cc,\n"), "overlapping");
  ExpectInvalid(Grade("id,predicted\nb2dc8411c,1 -5\n0486052bb,\naaa6a05cc,\n"), "positive");
}

TEST(HubmapGradeTest, MalformedAnswersAreInternalErrors) {
  absl::StatusOr<double> result =
      GradeCsvText(kId, "id,predicted\na,\n", "id,encoding,width_pixels\na,,3\n");
  ASSERT_FALSE(result.ok());
  EXPECT_FALSE(IsInvalidSubmission(result.status()));
  for (const char* answers : {"id,encoding,width_pixels,height_pixels\na,0 1,3,3\n",
                              "id,encoding,width_pixels,height_pixels\na,,3,3\n",
                              "id,encoding,width_pixels,height_pixels\na,1 1,3.5,3\n"}) {
    result = GradeCsvText(kId, "id,predicted\na,\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
