#include <string>
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
    "image,labels\n"
    "c.jpg,scab frog_eye_leaf_spot\n"
    "a.jpg,healthy\n"
    "b.jpg,rust\n"
    "d.jpg,complex\n";

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, "image,labels\n" + std::string(rows), answers);
}

using testing::ExpectInvalid;

TEST(PlantPathology2021GradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PlantPathology2021GradeTest, PerfectInAnyRowAndLabelOrder) {
  EXPECT_EQ(*Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,frog_eye_leaf_spot scab\nd.jpg,complex\n"),
            1.0);
  EXPECT_EQ(*testing::GradeCsvText(
                kId, "labels,image\ncomplex,d.jpg\nhealthy,a.jpg\nrust rust,b.jpg\n"
                     "scab  frog_eye_leaf_spot,c.jpg\n",
                kAnswers),
            1.0);
}

TEST(PlantPathology2021GradeTest, HandComputedMicroF1) {
  // The sample submission ("healthy" everywhere): tp 1 (a), predicted 4,
  // actual 5 -> 2 / 9.
  EXPECT_DOUBLE_EQ(*Grade("a.jpg,healthy\nb.jpg,healthy\nc.jpg,healthy\nd.jpg,healthy\n"),
                   2.0 / 9.0);
  // tp 3 (a, c: scab, d), predicted 5 (powdery_mildew is unknown to the
  // answers, so ignored), actual 5 -> 6 / 10. A missing cell is no labels.
  EXPECT_DOUBLE_EQ(
      *Grade("a.jpg,healthy\nb.jpg,\nc.jpg,scab complex\nd.jpg,complex powdery_mildew rust\n"),
      0.6);
  // Nothing predicted at all: F1 is 0.
  EXPECT_EQ(*Grade("a.jpg,\nb.jpg,\nc.jpg,\nd.jpg,\n"), 0.0);
}

TEST(PlantPathology2021GradeTest, RejectsWrongShape) {
  ExpectInvalid(testing::GradeCsvText(kId, "img,labels\na.jpg,x\nb.jpg,x\nc.jpg,x\nd.jpg,x\n",
                                      kAnswers),
                "must have an 'image' column");
  ExpectInvalid(testing::GradeCsvText(kId, "image,label\na.jpg,x\nb.jpg,x\nc.jpg,x\nd.jpg,x\n",
                                      kAnswers),
                "must have a 'labels' column");
  ExpectInvalid(Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,scab\n"), "same number of rows");
  ExpectInvalid(Grade(""), "same number of rows");
  // Extra columns are fine.
  EXPECT_EQ(*testing::GradeCsvText(kId,
                                   "image,labels,extra\na.jpg,healthy,1\nb.jpg,rust,2\n"
                                   "c.jpg,scab frog_eye_leaf_spot,3\nd.jpg,complex,4\n",
                                   kAnswers),
            1.0);
}

TEST(PlantPathology2021GradeTest, RejectsWrongIds) {
  ExpectInvalid(Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,scab\nc.jpg,complex\n"),
                "matching 'image' columns");
  ExpectInvalid(Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,scab\ne.jpg,complex\n"),
                "matching 'image' columns");
  ExpectInvalid(Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,scab\n,complex\n"),
                "matching 'image' columns");
  // A number among text ids is read as text, so it is just another id.
  ExpectInvalid(Grade("a.jpg,healthy\nb.jpg,rust\nc.jpg,scab\n7,complex\n"),
                "matching 'image' columns");
}

TEST(PlantPathology2021GradeTest, RejectsLabelsThatAreNotText) {
  // pandas reads these label columns as numbers: `.str` raises.
  ExpectInvalid(Grade("a.jpg,1\nb.jpg,2\nc.jpg,3\nd.jpg,4\n"), "not text");
  ExpectInvalid(Grade("a.jpg,1.5\nb.jpg,\nc.jpg,3\nd.jpg,4\n"), "not text");
  ExpectInvalid(Grade("a.jpg,True\nb.jpg,False\nc.jpg,True\nd.jpg,True\n"), "not text");
  // All missing is a float column of NaN, which fillna("") makes text.
  EXPECT_EQ(*Grade("a.jpg,\nb.jpg,\nc.jpg,\nd.jpg,\n"), 0.0);
}

TEST(PlantPathology2021GradeTest, MalformedAnswersAreInternalErrors) {
  const std::string rows = "a.jpg,healthy\nb.jpg,rust\n";
  for (const std::string_view answers :
       {std::string_view("image,label\na.jpg,healthy\nb.jpg,rust\n"),
        std::string_view("image,labels\na.jpg,healthy\nb.jpg,\n"),
        std::string_view("image,labels\na.jpg,healthy\nb.jpg,healthy\n")}) {
    const absl::StatusOr<double> result = Grade(rows, answers);
    EXPECT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
