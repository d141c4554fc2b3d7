#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers = "id,predicted\n265213,400\n265210,7\n265211,7\n265212,1009\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

TEST(INaturalistGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(INaturalistGradeTest, Scores) {
  EXPECT_EQ(*Grade("id,predicted\n265212,1009\n265213,400\n265211,7\n265210,7\n"), 0.0);
  EXPECT_EQ(*Grade("id,predicted\n265210,7\n265211,8\n265212,1009\n265213,1\n"), 0.5);
  EXPECT_EQ(*Grade("id,predicted\n265210,0\n265211,0\n265212,0\n265213,0\n"), 1.0);
  // Kaggle's format: the first of a space-separated top-k list counts.
  EXPECT_EQ(*Grade("id,predicted\n265210,7 1 2\n265211,3 7\n265212, 1009\n265213,400 5\n"),
            0.25);
  // int() reads any Unicode decimal digits (upstream on Python 3.11: 0.0 and 0.25).
  EXPECT_EQ(*Grade("id,predicted\n265210,٧ 1\n265211,７\n265212,١٠٠٩\n265213,4٠0\n"), 0.0);
  EXPECT_EQ(*Grade("id,predicted\n265210,٧ 1\n265211,3\n265212,1009\n265213,４00\n"),
            0.25);
}

TEST(INaturalistGradeTest, RejectsInvalidSubmissions) {
  testing::ExpectInvalid(Grade("id,predicted\n265210,7\n265211,7\n265212,1\n"), "length");
  testing::ExpectInvalid(Grade("id,category\n265210,7\n265211,7\n265212,1\n265213,1\n"),
                         "columns");
  testing::ExpectInvalid(Grade("Id,predicted\n265210,7\n265211,7\n265212,1\n265213,1\n"),
                         "columns");
  testing::ExpectInvalid(Grade("id,predicted\n265210,7\n265211,7\n265212,1\n265219,1\n"),
                         "mismatched");
  testing::ExpectInvalid(Grade("id,predicted\n265210,7\n265211,7\n265212,1\n265212,1\n"),
                         "mismatched");
  // Floats (here from a missing value) have no .split().
  testing::ExpectInvalid(Grade("id,predicted\n265210,7\n265211,\n265212,1\n265213,1\n"),
                         "integer");
  testing::ExpectInvalid(Grade("id,predicted\n265210,7.0\n265211,7\n265212,1\n265213,1\n"),
                         "integer");
  testing::ExpectInvalid(Grade("id,predicted\n265210,a 7\n265211,7\n265212,1\n265213,1\n"),
                         "integer");
  testing::ExpectInvalid(Grade("id,predicted\n265210,\" \"\n265211,7\n265212,1\n265213,1 2\n"),
                         "integer");
  // A numeral that is not a decimal digit: int() raises ValueError.
  testing::ExpectInvalid(Grade("id,predicted\n265210,7\n265211,7\n265212,1009\n265213,四\n"),
                         "integer");
}

}  // namespace
}  // namespace mlebench::grade_test
