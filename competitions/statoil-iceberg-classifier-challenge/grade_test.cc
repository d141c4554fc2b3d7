#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: Kaggle's 8-hex-digit ids, 0/1 labels.
constexpr std::string_view kAnswers =
    "id,is_iceberg\n"
    "dfd5f913,0\n"
    "e25388fd,1\n"
    "58b2aaa0,1\n"
    "4cfc3a18,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(StatoilGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(StatoilGradeTest, HandComputedLosses) {
  // The sample submission: every row loses log(2).
  EXPECT_DOUBLE_EQ(*Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                   std::log(2.0));
  // Rows in any order are aligned on id: -(log 0.8 + log 0.9 + log 0.6 + log 0.7) / 4.
  EXPECT_DOUBLE_EQ(*Grade("id,is_iceberg\n4cfc3a18,0.3\n58b2aaa0,0.6\ne25388fd,0.9\ndfd5f913,0.2\n"),
                   -(std::log(0.8) + std::log(0.9) + std::log(0.6) + std::log(0.7)) / 4);
  // Hard, perfect answers clip to eps = 2**-52: a loss of about 2.2e-16.
  const double perfect = *Grade("id,is_iceberg\ndfd5f913,0\ne25388fd,1\n58b2aaa0,1\n4cfc3a18,0\n");
  EXPECT_GT(perfect, 0.0);
  EXPECT_LT(perfect, 1e-15);
  // A confidently wrong row costs -log(2**-52) = 36.04 / 4.
  EXPECT_NEAR(*Grade("id,is_iceberg\ndfd5f913,1\ne25388fd,1\n58b2aaa0,1\n4cfc3a18,0\n"),
              52 * std::log(2.0) / 4, 1e-9);
}

TEST(StatoilGradeTest, PredictionsMustBeProbabilities) {
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,1.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,-0.1\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,x\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
}

TEST(StatoilGradeTest, ColumnsAndIds) {
  ExpectInvalid(Grade("name,is_iceberg\ndfd5f913,0.5\n"), "missing `id` column");
  ExpectInvalid(Grade("id,p\ndfd5f913,0.5\n"), "missing `is_iceberg` column");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n"),
                "different id's");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"
                      "00000000,0.5\n"),
                "different id's");
  // The right ids with a repeated row: only log_loss notices.
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"
                      "4cfc3a18,0.5\n"),
                "inconsistent numbers of samples");
  ExpectInvalid(Grade(""), "missing `id` column");
}

TEST(StatoilGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,is_iceberg\na,1\nb,1\n", "id,label\na,1\nb,0\n",
                                   "id,is_iceberg\na,1\nb,0.5\n"}) {
    absl::StatusOr<double> result = Grade("id,is_iceberg\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
