#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers keep every column of Kaggle's train.csv.
constexpr std::string_view kAnswers =
    "id,model_a,model_b,prompt,response_a,response_b,winner_model_a,winner_model_b,winner_tie\n"
    "30,m1,m2,\"[\"\"Hi\"\"]\",\"[\"\"a\"\"]\",\"[\"\"b\"\"]\",1,0,0\n"
    "10,m2,m3,\"[\"\"Yo\"\"]\",\"[\"\"c\"\"]\",\"[\"\"d\"\"]\",0,1,0\n"
    "20,m3,m1,\"[\"\"Eh\"\"]\",\"[\"\"e\"\"]\",\"[\"\"f\"\"]\",0,0,1\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kHeader[] = "id,winner_model_a,winner_model_b,winner_tie\n";
const double kEps = std::numeric_limits<double>::epsilon();

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, std::string(kHeader) + std::string(rows), answers);
}

using testing::ExpectInvalid;

TEST(LmsysChatbotArenaGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(LmsysChatbotArenaGradeTest, PerfectSubmissionCostsOnlyTheClippingFloor) {
  EXPECT_EQ(*Grade("20,0,0,1\n30,1,0,0\n10,0,1,0\n"), -std::log(1.0 - kEps));
}

TEST(LmsysChatbotArenaGradeTest, HandComputedLoss) {
  const double expected = ((-std::log(0.6) + -std::log(0.5)) + -std::log(0.2)) / 3.0;
  // Rows in id order 10, 20, 30 after sorting: true classes b, tie, a.
  EXPECT_EQ(*Grade("30,0.6,0.3,0.1\n10,0.25,0.5,0.25\n20,0.4,0.4,0.2\n"), expected);
  // The sample submission: 0.3333333333333333 * 3 sums to 0.9999999999999999,
  // which rounds to 1 at six decimals.
  EXPECT_DOUBLE_EQ(*Grade("10,0.3333333333333333,0.3333333333333333,0.3333333333333333\n"
                          "20,0.3333333333333333,0.3333333333333333,0.3333333333333333\n"
                          "30,0.3333333333333333,0.3333333333333333,0.3333333333333333\n"),
                   -std::log(0.3333333333333333));
  // Extra columns and another column order are fine.
  EXPECT_EQ(*testing::GradeCsvText(kId,
                                   "winner_tie,note,id,winner_model_b,winner_model_a\n"
                                   "0.1,x,30,0.3,0.6\n0.25,y,10,0.5,0.25\n0.2,z,20,0.4,0.4\n",
                                   kAnswers),
            expected);
}

TEST(LmsysChatbotArenaGradeTest, RowSumsAreRoundedToSixDecimals) {
  // 1.0000004 rounds to 1.0; 1.0000006 does not; nor does 0.9999994.
  EXPECT_EQ(*Grade("30,0.6000004,0.3,0.1\n10,0,1,0\n20,0,0,1\n"),
            ((-std::log(1 - kEps) + -std::log(1 - kEps)) + -std::log(0.6000004)) / 3.0);
  ExpectInvalid(Grade("30,0.6000006,0.3,0.1\n10,0,1,0\n20,0,0,1\n"), "must sum to 1");
  ExpectInvalid(Grade("30,0.5999994,0.3,0.1\n10,0,1,0\n20,0,0,1\n"), "must sum to 1");
  ExpectInvalid(Grade("30,0.5,0.3,0.1\n10,0,1,0\n20,0,0,1\n"), "must sum to 1");
}

TEST(LmsysChatbotArenaGradeTest, ValuesMustBeNumbersInRange) {
  ExpectInvalid(Grade("30,1.2,-0.2,0\n10,0,1,0\n20,0,0,1\n"), "between 0 and 1");
  ExpectInvalid(Grade("30,,0.5,0.5\n10,0,1,0\n20,0,0,1\n"), "between 0 and 1");
  ExpectInvalid(Grade("30,nan,0.5,0.5\n10,0,1,0\n20,0,0,1\n"), "between 0 and 1");
  ExpectInvalid(Grade("30,inf,0,0\n10,0,1,0\n20,0,0,1\n"), "between 0 and 1");
  ExpectInvalid(Grade("30,high,0.5,0.5\n10,0,1,0\n20,0,0,1\n"), "holds text");
  // Booleans compare as 0/1.
  EXPECT_EQ(*Grade("30,True,False,False\n10,False,True,False\n20,False,False,True\n"),
            -std::log(1.0 - kEps));
}

TEST(LmsysChatbotArenaGradeTest, ColumnsAndRowCount) {
  ExpectInvalid(testing::GradeCsvText(kId, "id,winner_model_a,winner_model_b\n30,1,0\n10,0,1\n20,0,1\n",
                                      kAnswers),
                "missing required columns: ['winner_tie']");
  ExpectInvalid(testing::GradeCsvText(kId, "key,winner_model_a,winner_model_b,winner_tie\n30,1,0,0\n",
                                      kAnswers),
                "missing required columns: ['id']");
  ExpectInvalid(Grade("30,1,0,0\n10,0,1,0\n"), "must have 3 rows, but has 2 rows");
  ExpectInvalid(Grade("30,1,0,0\n10,0,1,0\n20,0,0,1\n40,0,0,1\n"), "must have 3 rows");
}

TEST(LmsysChatbotArenaGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("30,1,0,0\n10,0,1,0\n21,0,0,1\n"), "Mismatch in Ids");
  ExpectInvalid(Grade("30,1,0,0\n30,0,1,0\n20,0,0,1\n"), "Mismatch in Ids");
  // With a text id the column is text: sortable, but no id equals the numbers.
  ExpectInvalid(Grade("30,1,0,0\nten,0,1,0\n20,0,0,1\n"), "");
}

TEST(LmsysChatbotArenaGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,winner_model_a,winner_model_b\n1,1,0\n",
                                   "key,winner_model_a,winner_model_b,winner_tie\n1,1,0,0\n"}) {
    absl::StatusOr<double> result = Grade("1,1,0,0\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
