// Differential test: SpearmanCorrelation against scipy 1.14.1's
// (upstream's pinned version) `spearmanr(x, y).correlation` on random pandas columns of 0 to 100000
// values (float64 with ties, infinities and NaN, int64, large int64, bool,
// text with and without missing values, constants, unequal lengths),
// generated and scored by spearman_correlation_reference.py. Each case must
// have the same raise/no-raise outcome, NaN where scipy gives NaN, and
// otherwise the same value bit for bit (see the header's exactness note).

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/correlation/spearman_correlation.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/correlation/spearman_correlation_reference.py";

Column ParseColumn(const std::string& line) {
  const std::vector<std::string> tokens = testing::Tokens(line);
  Column column;
  column.name = "x";
  const std::string& dtype = tokens.at(1);
  column.dtype = dtype == "int64"    ? Dtype::kInt64
                 : dtype == "bool"   ? Dtype::kBool
                 : dtype == "object" ? Dtype::kObject
                                     : Dtype::kFloat64;
  const size_t n = std::stoul(tokens.at(2));
  for (size_t i = 0; i < n; ++i) {
    const std::string& token = tokens.at(3 + i);
    switch (column.dtype) {
      case Dtype::kInt64:
        column.cells.push_back(static_cast<int64_t>(std::stoll(token)));
        break;
      case Dtype::kBool:
        column.cells.push_back(token == "1");
        break;
      case Dtype::kObject:
        column.cells.push_back(token == "~" ? Cell() : Cell(testing::Unhex(token)));
        break;
      case Dtype::kFloat64:
        column.cells.push_back(testing::ParseDouble(token));
        break;
    }
  }
  return column;
}

TEST(SpearmanCorrelationScipyDiffTest, MatchesScipySpearmanr) {
  int cases = 0, raised = 0, nan = 0, text = 0;
  for (int seed : {1, 2}) {
    const std::string out = testing::NewTempDir("reference").string() + "/cases.txt";
    const testing::CommandResult run =
        testing::RunCommand({testing::ReferencePython(), kScript, out, std::to_string(seed)});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::ifstream in(out);
    std::string header, a, b, outcome;
    while (std::getline(in, header) && std::getline(in, a) && std::getline(in, b) &&
           std::getline(in, outcome)) {
      SCOPED_TRACE(header);
      ++cases;
      const Column x = ParseColumn(a), y = ParseColumn(b);
      text += x.dtype == Dtype::kObject || y.dtype == Dtype::kObject;
      const absl::StatusOr<double> ours = SpearmanCorrelation(x, y);
      if (outcome.starts_with("raise")) {
        ++raised;
        EXPECT_FALSE(ours.ok()) << outcome << " but we scored " << *ours;
        continue;
      }
      ASSERT_TRUE(ours.ok()) << ours.status();
      const double expected = testing::ParseDouble(testing::Tokens(outcome).at(1));
      if (std::isnan(expected)) {
        ++nan;
        EXPECT_TRUE(std::isnan(*ours)) << *ours;
      } else {
        EXPECT_EQ(*ours, expected);
      }
    }
  }
  EXPECT_GT(cases, 250);
  EXPECT_GT(raised, 5);
  EXPECT_GT(nan, 20);
  EXPECT_GT(text, 20);
  EXPECT_GT(cases - raised - nan, 80);
}

}  // namespace
}  // namespace mlebench
