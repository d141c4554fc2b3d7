// Differential test: LogMaeByType against a restatement of
// champs-scalar-coupling's grade.py with pandas, scikit-learn and numpy, on
// random type labels and columns of every dtype a CSV column can have (sizes
// 1 to 100000; see log_mae_by_type_diff_test.py). We require the same
// raise/no-raise outcome and message, and run the reference twice
// (base/testing/numpy_kernels.h):
// - with numpy's baseline kernels (np.log is glibc's log, as ours): every
//   score bit for bit (NumpyMean reproduces numpy's summation order);
// - with this machine's kernels (on AVX-512, SVML's log, up to 2 ulps from
//   glibc's): every score within what that can move it, bounded per case below.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/table.h"
#include "base/testing/diff_test_column.h"
#include "base/testing/diff_test_kernel_bounds.h"
#include "base/testing/diff_test_outcomes.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/log_mae_by_type.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::kSvmlLogUlps;
using testing::NumpyKernels;
using testing::Tokens;
using testing::Ulp;

constexpr char kScript[] = "grading/metrics/regression/log_mae_by_type_diff_test.py";

// How far upstream's score (the mean of `groups` logs, the largest of them
// `largest` in magnitude) can move between numpy's baseline kernels and SVML's:
// each log by kSvmlLogUlps of itself; each of the groups - 1 additions, of terms
// that moved, may round one ulp of a partial sum (at most groups * largest)
// the other way, which the division by `groups` shrinks; and the division
// itself may round either way.
double MachineKernelTolerance(double score, double largest, int groups) {
  return kSvmlLogUlps * Ulp(largest) + Ulp(groups * largest) + Ulp(score);
}

class LogMaeByTypeDiffTest : public ::testing::TestWithParam<NumpyKernels> {};

TEST_P(LogMaeByTypeDiffTest, MatchesUpstreamOnRandomInputs) {
  const NumpyKernels kernels = GetParam();
  const std::string cases_path =
      absl::StrCat(testing::NewTempDir("cases").string(), "/log_mae_cases.txt");
  // LOG_MAE_DIFF_SEED (--test_env=LOG_MAE_DIFF_SEED=7) explores other inputs.
  const absl::Status run =
      testing::RunNumpyReference(kernels, kScript, {cases_path}, "LOG_MAE_DIFF_SEED");
  ASSERT_TRUE(run.ok()) << run;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  testing::DiffTestOutcomes outcomes(
      {.reference = "upstream", .check_code = true, .check_message = true});
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;
    ASSERT_EQ(block.size(), 5u);
    const std::string label = absl::StrCat("case ", Tokens(block[0]).at(2));
    const absl::StatusOr<double> ours =
        LogMaeByType(testing::ParseColumnLine(block[1]), testing::ParseColumnLine(block[2]),
                     testing::ParseColumnLine(block[3]));
    const std::vector<std::string> expect = Tokens(line);
    double tolerance = 0;  // baseline kernels: bit for bit
    if (kernels == NumpyKernels::kMachine && expect.at(0) == "ok") {
      ASSERT_EQ(expect.size(), 4u) << line;
      tolerance = MachineKernelTolerance(testing::ParseDouble(expect[1]),
                                         testing::ParseDouble(expect[2]), std::stoi(expect[3]));
    }
    outcomes.Add(label, ours, expect, tolerance);
    block.clear();
  }
  std::cout << testing::NumpyKernelsName(kernels) << " kernels: " << outcomes.Summary() << "\n";
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.scored + outcomes.raised, 600);
  EXPECT_GT(outcomes.scored, 300);
  EXPECT_GT(outcomes.raised, 100);
  if (kernels == NumpyKernels::kBaseline) {
    EXPECT_EQ(outcomes.identical, outcomes.scored);
  }
}

INSTANTIATE_TEST_SUITE_P(NumpyKernels, LogMaeByTypeDiffTest,
                         ::testing::Values(NumpyKernels::kBaseline, NumpyKernels::kMachine),
                         [](const auto& info) { return testing::NumpyKernelsName(info.param); });

}  // namespace
}  // namespace mlebench
