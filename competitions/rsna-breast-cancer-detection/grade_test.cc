#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: one row per breast, sorted by prediction_id.
constexpr std::string_view kAnswers =
    "prediction_id,cancer\n"
    "10006_L,0\n"
    "10006_R,1\n"
    "10011_L,0\n"
    "9707_R,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(RsnaBreastCancerGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RsnaBreastCancerGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("prediction_id,cancer\n9707_R,1\n10011_L,0\n10006_R,1\n10006_L,0\n"), 1.0);
  // Extra columns are ignored.
  EXPECT_EQ(*Grade("cancer,prediction_id,x\n0,10006_L,a\n1,10006_R,b\n0,10011_L,c\n1,9707_R,d\n"),
            1.0);
}

TEST(RsnaBreastCancerGradeTest, HandComputedScores) {
  // ctp = 0.5 + 0.7 = 1.2, cfp = 0.1 + 0.2 = 0.3: precision 0.8, recall 0.6,
  // F1 = 2 * 0.48 / 1.4.
  const absl::StatusOr<double> score =
      Grade("prediction_id,cancer\n10006_L,0.1\n10006_R,0.5\n10011_L,0.2\n9707_R,0.7\n");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 2 * 0.8 * 0.6 / 1.4, 1e-15);
  // A constant c (the sample submission): precision 2/4, recall c.
  EXPECT_NEAR(*Grade("prediction_id,cancer\n10006_L,0.3\n10006_R,0.3\n10011_L,0.3\n9707_R,0.3\n"),
              2 * 0.5 * 0.3 / 0.8, 1e-15);
  // Out-of-range values are clipped, not rejected.
  EXPECT_EQ(*Grade("prediction_id,cancer\n10006_L,-4\n10006_R,9\n10011_L,-1\n9707_R,1.5\n"), 1.0);
  // A missing prediction makes the sums NaN: upstream scores 0.
  EXPECT_EQ(*Grade("prediction_id,cancer\n10006_L,0.1\n10006_R,\n10011_L,0.2\n9707_R,0.7\n"), 0.0);
  // All zero (numpy floats): 0 / 0 is NaN, scored 0.
  EXPECT_EQ(*Grade("prediction_id,cancer\n10006_L,0.0\n10006_R,0\n10011_L,0\n9707_R,0\n"), 0.0);
}

TEST(RsnaBreastCancerGradeTest, ColumnAndLengthChecks) {
  ExpectInvalid(Grade("id,cancer\n10006_L,0.1\n"), "prediction_id not in submission");
  ExpectInvalid(Grade("prediction_id,score\n10006_L,0.1\n"), "cancer not in submission");
  ExpectInvalid(Grade("prediction_id,cancer\n10006_L,0.1\n10006_R,0.5\n10011_L,0.2\n"),
                "different lengths");
  ExpectInvalid(Grade(""), "prediction_id not in submission");
}

TEST(RsnaBreastCancerGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("prediction_id,cancer\n10006_L,0.1\n10006_R,0.5\n10011_R,0.2\n9707_R,0.7\n"),
                "not aligned");
  ExpectInvalid(Grade("prediction_id,cancer\n10006_L,0.1\n10006_L,0.5\n10011_L,0.2\n9707_R,0.7\n"),
                "not aligned");
  ExpectInvalid(Grade("prediction_id,cancer\n1,0.1\n2,0.5\n3,0.2\n4,0.7\n"), "not aligned");
}

TEST(RsnaBreastCancerGradeTest, UpstreamRaisesOnTheseValues) {
  ExpectInvalid(Grade("prediction_id,cancer\n10006_L,0.1\n10006_R,high\n10011_L,0.2\n9707_R,0.7\n"),
                "'>' not supported");
  // Every prediction negative: both sums stay the Python int 0 and
  // 0 / (0 + 0) raises ZeroDivisionError.
  ExpectInvalid(Grade("prediction_id,cancer\n10006_L,-0.1\n10006_R,-1\n10011_L,-2\n9707_R,-0.5\n"),
                "ZeroDivisionError");
}

TEST(RsnaBreastCancerGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  constexpr std::string_view kSubmission = "prediction_id,cancer\n1_L,0.9\n2_L,0.1\n";
  for (std::string_view answers : {"prediction_id,cancer\n1_L,0\n2_L,0\n",
                                   "prediction_id,label\n1_L,1\n2_L,0\n",
                                   "id,cancer\n1_L,1\n2_L,0\n"}) {
    absl::StatusOr<double> result = Grade(kSubmission, answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
