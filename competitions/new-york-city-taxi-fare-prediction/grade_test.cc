#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/csv.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The private test.csv keeps every column of Kaggle's train.csv. Sorted by
// key, the fares are 12.5, 4.5, 7.5, 20.0.
constexpr std::string_view kAnswers =
    "key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,"
    "dropoff_latitude,passenger_count\n"
    "2013-07-02 19:54:00.000000232,7.5,2013-07-02 19:54:00 UTC,-73.981,40.751,-73.99,40.73,1\n"
    "2010-03-25 08:29:00.0000001,12.5,2010-03-25 08:29:00 UTC,-73.95,40.77,-73.87,40.77,2\n"
    "2014-01-10 06:49:00.000000139,20.0,2014-01-10 06:49:00 UTC,-73.78,40.64,-73.98,40.75,1\n"
    "2012-12-05 19:11:00.00000081,4.5,2012-12-05 19:11:00 UTC,-73.99,40.72,-73.98,40.73,5\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

double Square(double x) { return x * x; }

TEST(NycTaxiFareGradeTest, Registered) {
  EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(Grader().grade_typed, nullptr);
}

TEST(NycTaxiFareGradeTest, PerfectSubmissionInAnyRowOrder) {
  EXPECT_EQ(*Grade("key,fare_amount\n"
                   "2014-01-10 06:49:00.000000139,20.0\n"
                   "2010-03-25 08:29:00.0000001,12.5\n"
                   "2012-12-05 19:11:00.00000081,4.5\n"
                   "2013-07-02 19:54:00.000000232,7.5\n"),
            0.0);
}

TEST(NycTaxiFareGradeTest, HandComputedRmse) {
  // Errors 1, -1, 2, 0 (in key order): sqrt((1 + 1 + 4 + 0) / 4).
  EXPECT_EQ(*Grade("key,fare_amount\n"
                   "2010-03-25 08:29:00.0000001,13.5\n"
                   "2012-12-05 19:11:00.00000081,3.5\n"
                   "2013-07-02 19:54:00.000000232,9.5\n"
                   "2014-01-10 06:49:00.000000139,20\n"),
            std::sqrt(1.5));
  // The sample submission's constant, with extra columns that are ignored.
  EXPECT_EQ(*Grade("passenger_count,fare_amount,key\n"
                   "1,11.35,2010-03-25 08:29:00.0000001\n"
                   "1,11.35,2012-12-05 19:11:00.00000081\n"
                   "1,11.35,2013-07-02 19:54:00.000000232\n"
                   "1,11.35,2014-01-10 06:49:00.000000139\n"),
            std::sqrt((((Square(12.5 - 11.35) + Square(4.5 - 11.35)) + Square(7.5 - 11.35)) +
                       Square(20.0 - 11.35)) /
                      4.0));
  // What upstream's grade.py gives for the same files.
  EXPECT_EQ(*Grade("key,fare_amount\n"
                   "2010-03-25 08:29:00.0000001,11.35\n"
                   "2012-12-05 19:11:00.00000081,11.35\n"
                   "2013-07-02 19:54:00.000000232,11.35\n"
                   "2014-01-10 06:49:00.000000139,11.35\n"),
            5.871328640095016);
}

TEST(NycTaxiFareGradeTest, KeysAreSortedButNeverCompared) {
  // Upstream pairs rows by position after sorting each side by key: other
  // keys, repeated keys or a missing key (sorted last) are still scored.
  EXPECT_EQ(*Grade("key,fare_amount\nd,20.0\nb,4.5\na,12.5\nc,7.5\n"), 0.0);
  EXPECT_EQ(*Grade("key,fare_amount\nx,12.5\nx,4.5\nx,7.5\nx,20.0\n"), 0.0);
  EXPECT_EQ(*Grade("key,fare_amount\n,20.0\n2010,12.5\n2011,4.5\n2012,7.5\n"), 0.0);
}

TEST(NycTaxiFareGradeTest, NumericKeysSortAsNumbers) {
  // pandas reads these keys as int64 (no dtype override, as upstream), so 9
  // sorts before 10.
  constexpr std::string_view answers = "key,fare_amount\n9,1.0\n10,2.0\n";
  EXPECT_EQ(*Grade("key,fare_amount\n10,2.0\n9,1.0\n", answers), 0.0);
  // As text, "10" sorts before "9".
  EXPECT_EQ(*Grade("key,fare_amount\n10,2.0\n9,1.0\n", "key,fare_amount\nk9,1.0\nk10,2.0\n"), 1.0);
}

TEST(NycTaxiFareGradeTest, PredictionsOfOtherDtypesAreNumbers) {
  constexpr std::string_view answers = "key,fare_amount\na,1.0\nb,0.0\n";
  EXPECT_EQ(*Grade("key,fare_amount\na,True\nb,False\n", answers), 0.0);
  EXPECT_EQ(*Grade("key,fare_amount\na,1\nb,2\n", answers), std::sqrt(2.0));
  // Huge predictions overflow to an infinite (valid, hopeless) score.
  EXPECT_EQ(*Grade("key,fare_amount\na,1e200\nb,0\n", answers),
            std::numeric_limits<double>::infinity());
}

TEST(NycTaxiFareGradeTest, InvalidPredictions) {
  ExpectInvalid(Grade("key,fare_amount\n"
                      "2010-03-25 08:29:00.0000001,13.5\n"
                      "2012-12-05 19:11:00.00000081,\n"
                      "2013-07-02 19:54:00.000000232,9.5\n"
                      "2014-01-10 06:49:00.000000139,20\n"),
                "Input contains NaN.");
  ExpectInvalid(Grade("key,fare_amount\n"
                      "2010-03-25 08:29:00.0000001,13.5\n"
                      "2012-12-05 19:11:00.00000081,cheap\n"
                      "2013-07-02 19:54:00.000000232,9.5\n"
                      "2014-01-10 06:49:00.000000139,20\n"),
                "could not convert string to float: 'cheap'");
  ExpectInvalid(Grade("key,fare_amount\n"
                      "2010-03-25 08:29:00.0000001,13.5\n"
                      "2012-12-05 19:11:00.00000081,inf\n"
                      "2013-07-02 19:54:00.000000232,9.5\n"
                      "2014-01-10 06:49:00.000000139,20\n"),
                "infinity");
  // A bool column with a hole is object (True, NaN, ...).
  ExpectInvalid(Grade("key,fare_amount\na,True\nb,\nc,False\nd,True\n"), "Input contains NaN.");
}

TEST(NycTaxiFareGradeTest, StructuralChecks) {
  ExpectInvalid(Grade("key,prediction\na,1\nb,1\nc,1\nd,1\n"),
                "Submission should have a fare_amount column");
  ExpectInvalid(Grade("id,fare_amount\na,1\nb,1\nc,1\nd,1\n"),
                "Submission should have a key column");
  ExpectInvalid(Grade(""), "fare_amount column");
  ExpectInvalid(Grade("key,fare_amount\n"), "inconsistent numbers of samples: [4, 0]");
  ExpectInvalid(Grade("key,fare_amount\na,1\nb,2\nc,3\n"),
                "inconsistent numbers of samples: [4, 3]");
  ExpectInvalid(Grade("key,fare_amount\na,1\nb,2\nc,3\nd,4\ne,5\n"),
                "inconsistent numbers of samples: [4, 5]");
}

TEST(NycTaxiFareGradeTest, UnorderableKeysAreInvalid) {
  // pandas' chunked reading of a large file can mix text and numbers in one
  // column; sort_values then raises TypeError.
  Table answers({Column{"key", Dtype::kObject, {std::string("a"), std::string("b")}},
                 Column{"fare_amount", Dtype::kFloat64, {1.0, 2.0}}});
  Table submission({Column{"key", Dtype::kObject, {std::string("a"), int64_t{5}}},
                    Column{"fare_amount", Dtype::kFloat64, {1.0, 2.0}}});
  ExpectInvalid(GradeTables(Grader(), TypedTable::View(submission), TypedTable::View(answers)),
                "sorting the submission by key");
}

TEST(NycTaxiFareGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {
           std::string_view("key,fare\na,1.0\n"),
           std::string_view("id,fare_amount\na,1.0\n"),
           std::string_view("key,fare_amount\na,\n"),
           std::string_view("key,fare_amount\n"),
       }) {
    absl::StatusOr<double> result = Grade("key,fare_amount\na,1.0\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
