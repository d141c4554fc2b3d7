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

// One fragment of 5 x 4 pixels (width x height) with 5 ink pixels.
constexpr char kAnswers[] = "Id,Predicted,width,height\na,1 3 10 2,5,4\n";

absl::StatusOr<double> Grade(const std::string& submission) {
  return GradeCsvText(kId, submission, kAnswers);
}

TEST(VesuviusGradeTest, RegisteredWithUpstreamMetricName) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(VesuviusGradeTest, PerfectSubmission) {
  EXPECT_EQ(*Grade("Id,Predicted\na,1 3 10 2\n"), 1.0);
  EXPECT_EQ(*Grade("Predicted,Id\n1 2 3 1 10 2,a\n"), 1.0);
}

TEST(VesuviusGradeTest, HandComputedScores) {
  // The sample submission "1 1 5 1": tp 1, predicted 2, actual 5:
  // 1.25 * 1 / (0.25 * 5 + 2).
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\na,1 1 5 1\n"), 1.25 / 3.25);
  // All 20 pixels: tp 5: 1.25 * 5 / (1.25 + 20).
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\na,1 20\n"), 6.25 / 21.25);
  // Runs past the image are clipped.
  EXPECT_DOUBLE_EQ(*Grade("Id,Predicted\na,1 500\n"), 6.25 / 21.25);
  // A lone start predicts nothing (numpy broadcasting); F is 0.
  EXPECT_EQ(*GradeCsvText(kId, "Id,Predicted\na,5\nb,1 1\n",
                          "Id,Predicted,width,height\na,1 1,2,2\nb,1 1,2,2\n"),
            0.5);
  // Two rows, averaged.
  EXPECT_DOUBLE_EQ(*GradeCsvText(kId, "Id,Predicted\na,1 2\nb,4 1\n",
                                 "Id,Predicted,width,height\na,1 2,2,2\nb,3 2,2,2\n"),
                   (1.0 + 1.25 / 1.5) / 2);
}

TEST(VesuviusGradeTest, WrongShape) {
  ExpectInvalid(Grade("Id,Predicted\na,1 1\na,1 1\n"), "rows");
  ExpectInvalid(Grade("Id,Predicted,x\na,1 1,2\n"), "2 columns");
  ExpectInvalid(Grade("Id,Prediction\na,1 1\n"), "Id and Predicted");
  ExpectInvalid(Grade("Id,Predicted\nb,1 1\n"), "expected Id a");
}

TEST(VesuviusGradeTest, PredictionsMustBeRleText) {
  ExpectInvalid(Grade("Id,Predicted\na,\n"), "string");
  ExpectInvalid(Grade("Id,Predicted\na,7\n"), "string");
  ExpectInvalid(Grade("Id,Predicted\na,1 x\n"), "not an integer");
  ExpectInvalid(Grade("Id,Predicted\na,5 1 1 1\n"), "sorted");
  ExpectInvalid(Grade("Id,Predicted\na,1 3 2 1\n"), "overlapping");
  ExpectInvalid(Grade("Id,Predicted\na,1 0\n"), "positive");
}

TEST(VesuviusGradeTest, MalformedAnswersAreInternalErrors) {
  for (const char* answers :
       {"Id,Predicted,width\na,1 1,3\n", "Id,Predicted,width,height\na,,3,3\n",
        "Id,Predicted,width,height\na,0 1,3,3\n"}) {
    absl::StatusOr<double> result = GradeCsvText(kId, "Id,Predicted\na,1 1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
