#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Customers 0a and 0b bought in the test week; 0c (in the submission only)
// did not. Ids look like numbers but stay text.
constexpr std::string_view kAnswers =
    "customer_id,prediction\n"
    "0b,5 6\n"
    "0a,1 2 3\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(HAndMGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HAndMGradeTest, PerfectInAnyOrderWithExtraCustomers) {
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,1 2 3\n0b,5 6\n"), 1.0);
  EXPECT_EQ(*Grade("prediction,customer_id\n6 5,0b\n9,0c\n3 1 2,0a\n"), 1.0);
}

TEST(HAndMGradeTest, HandComputedScores) {
  // 0a: hits at ranks 2 and 4: (1/2 + 2/4) / 3; 0b: hit at rank 1, the
  // repeated 5 counts once, 6 at rank 3: (1 + 2/3) / 2.
  EXPECT_DOUBLE_EQ(*Grade("customer_id,prediction\n0a,9 1 8 2\n0b,5 5 6\n"),
                   ((0.5 + 0.5) / 3.0 + (1.0 + 2.0 / 3.0) / 2.0) / 2.0);
  // Only the first 12 predictions count.
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,1 2 3\n0b,0 0 0 0 0 0 0 0 0 0 0 0 5 6\n"), 0.5);
  // A constant list that matches nothing (like the sample submission).
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,0706016001\n0b,0706016001\n0c,0706016001\n"), 0.0);
}

TEST(HAndMGradeTest, PredictionsCompareAsPandasStrText) {
  // One article per customer makes the answers' column int64; str() of the
  // ints still matches the submission's text.
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,7 1\n0b,8\n", "customer_id,prediction\n0a,1\n0b,8\n"),
            0.75);
  // A missing prediction makes the submission's column float ("8.0" never
  // matches "8"), and the missing one is "nan".
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,\n0b,8\n", "customer_id,prediction\n0a,1\n0b,8\n"),
            0.0);
  // Leading zeros are text: "01" is not "1".
  EXPECT_EQ(*Grade("customer_id,prediction\n0a,01 x\n0b,5 6\n"), 0.5);
}

TEST(HAndMGradeTest, RepeatedCustomerShiftsThePairing) {
  // Upstream zips the sorted rows: 0a, 0a, 0b against 0a, 0b, so the second
  // 0a row is scored against 0b's answer and 0b's row is dropped.
  EXPECT_DOUBLE_EQ(*Grade("customer_id,prediction\n0a,1 2 3\n0b,5 6\n0a,1 2 3\n"),
                   (1.0 + 0.0) / 2.0);
}

TEST(HAndMGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("customer_id,prediction,x\n0a,1\n0b,5\n"),
                "must have 'customer_id' and 'prediction' columns");
  ExpectInvalid(Grade("customer_id\n0a\n0b\n"), "must have 'customer_id' and 'prediction' columns");
  ExpectInvalid(Grade("customer,prediction\n0a,1\n0b,5\n"),
                "must have 'customer_id' and 'prediction' columns");
  ExpectInvalid(Grade("customer_id,prediction,prediction\n0a,1,1\n0b,5,5\n"),
                "must have 'customer_id' and 'prediction' columns");
  ExpectInvalid(Grade(""), "must have 'customer_id' and 'prediction' columns");
  ExpectInvalid(Grade("customer_id,prediction\n0a,1 2 3\n0c,5 6\n"), "superset");
  ExpectInvalid(Grade("customer_id,prediction\n0a,1 2 3\n,5 6\n"), "superset");
  ExpectInvalid(Grade("customer_id,prediction\n0a,1 2 3\n"), "superset");
}

TEST(HAndMGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"customer_id,label\n0a,1\n", "customer_id,prediction,x\n0a,1,2\n",
                                   "customer_id,prediction\n0a,1\n0a,2\n",
                                   "customer_id,prediction\n,1\n"}) {
    absl::StatusOr<double> result = Grade("customer_id,prediction\n0a,1\n", answers);
    EXPECT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
