// Differential test: LaplaceLogLikelihood against a numpy restatement of
// upstream's laplace_log_likelihood (laplace_log_likelihood_diff_test.py) on
// random arrays of sizes 0 to 100000, with NaN, infinities, negative and
// tiny confidences, and lengths that broadcast or do not. We require the same
// raise/no-raise outcome and message, and run the reference twice
// (base/testing/numpy_kernels.h): with numpy's baseline kernels (np.log is
// glibc's, as ours) every value bit for bit; with this machine's (on AVX-512,
// SVML's log, up to 2 ulps from glibc's) within what that can move the mean,
// bounded per case below (NaN and infinities equal in both).

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_kernel_bounds.h"
#include "base/testing/diff_test_outcomes.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/laplace_log_likelihood.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::kSvmlLogUlps;
using testing::NumpyKernels;
using testing::ParseDouble;
using testing::Tokens;
using testing::Ulp;

constexpr char kScript[] = "grading/metrics/regression/laplace_log_likelihood_diff_test.py";

std::vector<double> ParseArray(const std::string& line) {
  const std::vector<std::string> t = Tokens(line);
  std::vector<double> values;
  for (size_t i = 2; i < t.size(); ++i) values.push_back(ParseDouble(t[i]));
  EXPECT_EQ(values.size(), std::stoul(t.at(1)));
  return values;
}

// How far the mean of n terms (-sqrt(2) delta / sd - log(sqrt(2) sd), the
// largest |log| `largest_log`, the largest |term| `largest_term`) can move
// between numpy's baseline kernels and SVML's: each log by kSvmlLogUlps of
// itself, each term by that plus its subtraction's rounding, the mean by the
// largest term move plus two pairwise sums' roundings and the division's.
double MachineKernelTolerance(double mean, double largest_log, double largest_term, double n) {
  if (n == 0) return 0;
  const double log_move = kSvmlLogUlps * Ulp(largest_log);
  const double term_move = log_move + Ulp(largest_term + log_move);
  return term_move +
         testing::NumpySumRounding(static_cast<size_t>(n), n * (largest_term + term_move)) / n +
         Ulp(mean);
}

class LaplaceLogLikelihoodDiffTest : public ::testing::TestWithParam<NumpyKernels> {};

TEST_P(LaplaceLogLikelihoodDiffTest, MatchesNumpyOnRandomInputs) {
  const NumpyKernels kernels = GetParam();
  const std::string cases_path =
      absl::StrCat(testing::NewTempDir("cases").string(), "/laplace_cases.txt");
  // LAPLACE_DIFF_SEED (--test_env=LAPLACE_DIFF_SEED=7) explores other inputs.
  const absl::Status run =
      testing::RunNumpyReference(kernels, kScript, {cases_path}, "LAPLACE_DIFF_SEED");
  ASSERT_TRUE(run.ok()) << run;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  testing::DiffTestOutcomes outcomes(
      {.reference = "numpy", .check_code = false, .check_message = true});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 5u);
    const absl::StatusOr<double> ours =
        LaplaceLogLikelihood(ParseArray(block[1]), ParseArray(block[2]), ParseArray(block[3]));
    const std::vector<std::string> expect = Tokens(line);
    double tolerance = 0;  // baseline kernels: bit for bit
    if (kernels == NumpyKernels::kMachine && expect.at(0) == "ok") {
      ASSERT_EQ(expect.size(), 5u) << line;
      tolerance = MachineKernelTolerance(ParseDouble(expect[1]), ParseDouble(expect[2]),
                                         ParseDouble(expect[3]), ParseDouble(expect[4]));
    }
    outcomes.Add(block[0], ours, expect, tolerance);
    block.clear();
  }
  std::cout << testing::NumpyKernelsName(kernels) << " kernels: " << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 1500);
  EXPECT_GT(outcomes.scored, 1000);
  EXPECT_GT(outcomes.raised, 20);
}

INSTANTIATE_TEST_SUITE_P(NumpyKernels, LaplaceLogLikelihoodDiffTest,
                         ::testing::Values(NumpyKernels::kBaseline, NumpyKernels::kMachine),
                         [](const auto& info) { return testing::NumpyKernelsName(info.param); });

}  // namespace
}  // namespace mlebench
