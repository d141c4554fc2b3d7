// Differential test: MatthewsCorrCoef against sklearn.metrics.
// matthews_corrcoef on random label columns read by pandas (binary and
// multiclass ints, integral floats, fractions, strings, bools, constants,
// missing values; sizes 1 to 100000): same raise/no-raise outcome and values
// within 1e-12.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/classification/matthews_correlation.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/classification/matthews_correlation_sklearn_diff_test.py";

TEST(MatthewsCorrelationSklearnDiffTest, MatchesSklearnOnRandomColumns) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/mcc_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(cases_path);
  ASSERT_TRUE(in);
  std::string line;
  int cases = 0, raised = 0;
  while (std::getline(in, line)) {
    const std::vector<std::string> tokens = testing::Tokens(line);
    ASSERT_GE(tokens.size(), 2u);
    absl::StatusOr<Table> table = ReadCsvString(testing::Unhex(tokens[0]), "case");
    ASSERT_TRUE(table.ok()) << table.status();
    absl::StatusOr<double> ours = MatthewsCorrCoef(*table->Find("t"), *table->Find("p"));
    if (tokens[1] == "raise") {
      EXPECT_FALSE(ours.ok()) << "case " << cases;
      ++raised;
    } else {
      ASSERT_TRUE(ours.ok()) << "case " << cases << ": " << ours.status();
      const double reference = testing::ParseDouble(tokens.at(2));
      EXPECT_NEAR(*ours, reference, 1e-12) << "case " << cases;
    }
    ++cases;
  }
  EXPECT_EQ(cases, 305);
  EXPECT_GT(raised, 10);
}

}  // namespace
}  // namespace mlebench
