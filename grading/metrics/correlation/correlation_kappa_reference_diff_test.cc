// Differential test: PearsonCorrelation against scipy 1.14.1's pearsonr, bit
// for bit, and QuadraticWeightedKappa against scikit-learn 1.5.1's
// cohen_kappa_score(weights="quadratic") within 1e-9 relative (upstream's
// pinned versions), on random inputs of 1 to 100000 values generated and
// scored by correlation_kappa_reference.py. Each case must also have the same
// raise/no-raise outcome and NaN where the reference is NaN.

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "grading/metrics/correlation/pearson_correlation.h"
#include "grading/metrics/correlation/quadratic_weighted_kappa.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/correlation/correlation_kappa_reference.py";

Column ParseColumn(const std::string& line) {
  std::vector<std::string> tokens = absl::StrSplit(line, ' ', absl::SkipEmpty());
  Column column;
  column.name = "y";
  const std::string& dtype = tokens.at(1);
  column.dtype = dtype == "int64" ? Dtype::kInt64 : dtype == "bool" ? Dtype::kBool : Dtype::kFloat64;
  const size_t n = std::stoul(tokens.at(2));
  for (size_t i = 0; i < n; ++i) {
    const std::string& token = tokens.at(3 + i);
    const double value = token == "n" ? NAN : std::strtod(token.c_str(), nullptr);
    if (column.dtype == Dtype::kInt64) {
      column.cells.push_back(static_cast<int64_t>(value));
    } else if (column.dtype == Dtype::kBool) {
      column.cells.push_back(value != 0.0);
    } else {
      column.cells.push_back(value);
    }
  }
  return column;
}

template <typename Metric>
void CompareWithReference(const std::string& metric, int seed, bool exact, Metric score) {
  const std::string out = testing::NewTempDir("reference").string() + "/cases.txt";
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, metric, out, std::to_string(seed)});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(out);
  std::string header, a, b, outcome;
  int cases = 0, raised = 0, nan = 0;
  while (std::getline(in, header) && std::getline(in, a) && std::getline(in, b) &&
         std::getline(in, outcome)) {
    SCOPED_TRACE(header);
    ++cases;
    const absl::StatusOr<double> ours = score(ParseColumn(a), ParseColumn(b));
    if (outcome.rfind("raise", 0) == 0) {
      ++raised;
      EXPECT_FALSE(ours.ok()) << outcome << " but we scored " << *ours;
      continue;
    }
    ASSERT_TRUE(ours.ok()) << ours.status();
    std::vector<std::string> tokens = absl::StrSplit(outcome, ' ');
    const double expected = std::strtod(tokens.at(1).c_str(), nullptr);
    if (std::isnan(expected)) {
      ++nan;
      EXPECT_TRUE(std::isnan(*ours)) << *ours;
    } else if (exact) {
      EXPECT_EQ(*ours, expected);
    } else {
      EXPECT_NEAR(*ours, expected, 1e-9 * std::abs(expected));
    }
  }
  EXPECT_GT(cases, 90);
  EXPECT_GT(raised, 5);
  EXPECT_GE(nan, 1);
  EXPECT_GT(cases - raised - nan, 30);
}

TEST(PearsonCorrelationScipyDiffTest, MatchesScipyPearsonr) {
  for (int seed : {1, 2}) {
    CompareWithReference("pearson", seed, /*exact=*/true, [](const Column& x, const Column& y) {
      return PearsonCorrelation(x, y);
    });
  }
}

TEST(QuadraticWeightedKappaSklearnDiffTest, MatchesCohenKappaScore) {
  for (int seed : {1, 2}) {
    CompareWithReference("qwk", seed, /*exact=*/false, [](const Column& x, const Column& y) {
      return QuadraticWeightedKappa(x, y);
    });
  }
}

}  // namespace
}  // namespace mlebench
