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
    "image_id,healthy,multiple_diseases,rust,scab\n"
    "Test_3,0,0,0,1\n"
    "Test_0,1,0,0,0\n"
    "Test_1,0,1,0,0\n"
    "Test_2,0,0,1,0\n"
    "Test_4,0,0,1,0\n";

constexpr std::string_view kHeader = "image_id,healthy,multiple_diseases,rust,scab\n";

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, std::string(kHeader) + std::string(rows), answers);
}

using testing::ExpectInvalid;

TEST(PlantPathologyGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PlantPathologyGradeTest, PerfectInAnyRowAndColumnOrder) {
  EXPECT_EQ(*Grade("Test_0,0.9,0.1,0.0,0.0\nTest_1,0.1,0.8,0.1,0.0\nTest_2,0,0,1,0\n"
                   "Test_3,0.2,0.1,0.1,0.6\nTest_4,0.1,0.1,0.7,0.1\n"),
            1.0);
  EXPECT_EQ(*testing::GradeCsvText(kId,
                                   "scab,rust,image_id,multiple_diseases,healthy\n"
                                   "1,0,Test_3,0,0\n0,1,Test_4,0,0\n0,1,Test_2,0,0\n"
                                   "0,0,Test_1,1,0\n0,0,Test_0,0,1\n",
                                   kAnswers),
            1.0);
}

TEST(PlantPathologyGradeTest, HandComputedMeanOfColumnAucs) {
  // healthy and multiple_diseases ranked perfectly (1, 1); rust: positives
  // 0.4 and 0.9 against negatives 0.1, 0.5, 0.2, so 5 of 6 pairs (5/6);
  // scab constant (1/2).
  EXPECT_DOUBLE_EQ(*Grade("Test_0,0.9,0.1,0.1,0.25\nTest_1,0.1,0.8,0.5,0.25\n"
                          "Test_2,0.0,0.0,0.4,0.25\nTest_3,0.2,0.1,0.2,0.25\n"
                          "Test_4,0.1,0.1,0.9,0.25\n"),
                   (1.0 + 1.0 + 5.0 / 6.0 + 0.5) / 4.0);
  // The sample submission: every column constant.
  EXPECT_EQ(*Grade("Test_0,0.25,0.25,0.25,0.25\nTest_1,0.25,0.25,0.25,0.25\n"
                   "Test_2,0.25,0.25,0.25,0.25\nTest_3,0.25,0.25,0.25,0.25\n"
                   "Test_4,0.25,0.25,0.25,0.25\n"),
            0.5);
  // Scores are not checked against [0, 1]: only their ranking matters.
  EXPECT_EQ(*Grade("Test_0,5,-1,-1,-1\nTest_1,-3,7,-2,-2\nTest_2,-3,-1,2,-3\n"
                   "Test_3,-3,-1,-1,9\nTest_4,-3,-1,2,-4\n"),
            1.0);
  // Booleans are 0/1 scores. Reversed rankings score 0.
  EXPECT_EQ(*Grade("Test_0,True,False,False,False\nTest_1,False,True,False,False\n"
                   "Test_2,False,False,True,False\nTest_3,False,False,False,True\n"
                   "Test_4,False,False,True,False\n"),
            1.0);
  EXPECT_EQ(*Grade("Test_0,0,1,1,1\nTest_1,1,0,1,1\nTest_2,1,1,0,1\nTest_3,1,1,1,0\n"
                   "Test_4,1,1,0,1\n"),
            0.0);
}

TEST(PlantPathologyGradeTest, RejectsWrongShape) {
  ExpectInvalid(Grade("Test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,1,0\nTest_3,0,0,0,1\n"),
                "to have 5 rows but got 4");
  ExpectInvalid(Grade(""), "to have 5 rows but got 0");
  ExpectInvalid(testing::GradeCsvText(kId,
                                      "image_id,healthy,rust,scab\nTest_0,1,0,0\nTest_1,0,0,0\n"
                                      "Test_2,0,1,0\nTest_3,0,0,1\nTest_4,0,1,0\n",
                                      kAnswers),
                "to have columns");
  ExpectInvalid(testing::GradeCsvText(kId,
                                      "image_id,healthy,multiple_diseases,rust,scab,extra\n"
                                      "Test_0,1,0,0,0,1\nTest_1,0,1,0,0,1\nTest_2,0,0,1,0,1\n"
                                      "Test_3,0,0,0,1,1\nTest_4,0,0,1,0,1\n",
                                      kAnswers),
                "to have columns");
  ExpectInvalid(testing::GradeCsvText(kId,
                                      "id,healthy,multiple_diseases,rust,scab\n"
                                      "Test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,1,0\n"
                                      "Test_3,0,0,0,1\nTest_4,0,0,1,0\n",
                                      kAnswers),
                "to have columns");
}

TEST(PlantPathologyGradeTest, RejectsWrongIds) {
  // Repeated, unknown, missing, differently spelt.
  for (std::string_view rows : {
           "Test_0,1,0,0,0\nTest_0,0,1,0,0\nTest_2,0,0,1,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n",
           "Test_0,1,0,0,0\nTest_5,0,1,0,0\nTest_2,0,0,1,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n",
           "Test_0,1,0,0,0\n,0,1,0,0\nTest_2,0,0,1,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n",
           "test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,1,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n",
       }) {
    SCOPED_TRACE(rows);
    ExpectInvalid(Grade(rows), "matching 'image_id' columns");
  }
}

TEST(PlantPathologyGradeTest, RejectsScoresRocAucCannotUse) {
  ExpectInvalid(
      Grade("Test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n"),
      "roc_auc_score rejects");
  ExpectInvalid(
      Grade("Test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,inf,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n"),
      "roc_auc_score rejects");
  ExpectInvalid(
      Grade("Test_0,1,0,0,0\nTest_1,0,1,0,0\nTest_2,0,0,high,0\nTest_3,0,0,0,1\nTest_4,0,0,1,0\n"),
      "could not convert string to float: 'high'");
}

TEST(PlantPathologyGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission =
      std::string(kHeader) + "Test_0,1,0,0,0\nTest_1,0,1,0,0\n";
  for (std::string_view answers : {
           // multiple_diseases has one class only.
           "image_id,healthy,multiple_diseases,rust,scab\nTest_0,1,0,1,0\nTest_1,0,0,0,1\n",
           // A missing label column, an extra column.
           "image_id,healthy,rust,scab\nTest_0,1,0,1\nTest_1,0,1,0\n",
           "image_id,healthy,multiple_diseases,rust,scab,x\nTest_0,1,0,1,0,1\nTest_1,0,1,0,1,1\n",
       }) {
    SCOPED_TRACE(answers);
    const absl::StatusOr<double> result = testing::GradeCsvText(kId, submission, answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
