// Differential test: RootMeanSquaredError, RootMeanSquaredLogError and
// MeanColumnWiseRmsle against scikit-learn on random columns of every dtype a
// CSV column can have. regression_sklearn_diff_test.py generates the cases
// and records, for each, scikit-learn 1.5.1's outcome (upstream's pinned
// version; root_mean_squared_error / root_mean_squared_log_error) and the
// older spelling's value on the same 1.5.1 (mean_squared_error(squared=False)
// and sqrt(mean_squared_log_error)) where it takes the inputs. We require the
// same raise/no-raise outcome and the same error message, and our value
// within 1e-9 relative of the older spelling's. The script
// runs twice (base/testing/numpy_kernels.h):
// - with numpy's baseline kernels (np.log1p is glibc's, as ours): every value
//   bit for bit equal to sklearn 1.5.1's;
// - with this machine's kernels (on AVX-512, SVML's log1p, up to 2 ulps from
//   glibc's): RMSE, which uses no such kernel, still bit for bit; RMSLE and
//   its column-wise mean within what log1p's moves can do to them, bounded
//   case by case below.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/table.h"
#include "base/testing/diff_test_kernel_bounds.h"
#include "base/testing/diff_test_column.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/numpy_kernels.h"
#include "base/testing/test_util.h"
#include "grading/metrics/regression/mean_column_wise_rmsle.h"
#include "grading/metrics/regression/rmse.h"
#include "grading/metrics/regression/rmsle.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::kSvmlLogUlps;
using testing::NumpyKernels;
using testing::ParseColumnLine;
using testing::ParseDouble;
using testing::Tokens;
using testing::Ulp;
using testing::Unhex;

constexpr char kScript[] = "grading/metrics/regression/regression_sklearn_diff_test.py";
constexpr double kRelativeTolerance = 1e-9;

bool Close(double ours, double theirs) {
  if (std::isinf(theirs)) return ours == theirs;
  return std::fabs(ours - theirs) <= kRelativeTolerance * std::max(1.0, std::fabs(theirs));
}

// How far one RMSLE, sqrt(mean((log1p(t) - log1p(p))^2)) over n pairs, can
// move between numpy's baseline kernels and SVML's, from the script's tokens
// for it (regression_sklearn_diff_test.py, log1p_part): each log1p moves by
// kSvmlLogUlps of at most `largest`, so a difference d by e (with its own
// rounding); only the `unequal` pairs' differences can move (log1p(x) -
// log1p(x) is 0 with any kernel), each square by 2|d|e + e^2 plus a rounding,
// |d| <= `widest`; their mean by that share of it, plus two pairwise sums'
// roundings of nonnegative terms and the division's; the square root by the
// most such a move of its argument can do, plus its own rounding.
double RmsleMove(double rmsle, double largest, double widest, double unequal, double n) {
  if (n == 0 || !std::isfinite(rmsle)) return 0;  // NaN and inf compare exactly
  const double e = 2 * kSvmlLogUlps * Ulp(largest) + Ulp(2 * largest);
  const double square_move = 2 * widest * e + e * e + Ulp((widest + e) * (widest + e));
  const double mse = rmsle * rmsle;
  const double mse_move = unequal / n * square_move +
                          testing::NumpySumRounding(static_cast<size_t>(n), n * (mse + square_move)) / n +
                          Ulp(mse + square_move);
  return rmsle - std::sqrt(std::max(0.0, mse - mse_move)) + Ulp(rmsle);
}

// The machine-kernel tolerance of an "ok" line: 0 for RMSE (no kernel of
// numpy's that differs), RmsleMove for RMSLE, their mean's for the column-wise
// mean of two.
double MachineKernelTolerance(const std::string& metric, const std::vector<std::string>& expect) {
  if (metric == "rmse") return 0;
  const size_t parts = metric == "rmsle" ? 1 : 2;
  EXPECT_EQ(expect.size(), 3 + 5 * parts) << metric;
  if (expect.size() != 3 + 5 * parts) return 0;
  double move = 0;
  for (size_t k = 0; k < parts; ++k) {
    const auto token = [&](size_t i) { return ParseDouble(expect[3 + 5 * k + i]); };
    move += RmsleMove(token(0), token(1), token(2), token(3), token(4));
  }
  return parts == 1 ? move : move / 2 + Ulp(ParseDouble(expect[1]));
}

struct Tally {
  int ok = 0;
  int raise = 0;
  int failures = 0;
};

class RegressionSklearnDiffTest : public ::testing::TestWithParam<NumpyKernels> {};

TEST_P(RegressionSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const NumpyKernels kernels = GetParam();
  const std::string cases_path =
      absl::StrCat(testing::NewTempDir("cases").string(), "/regression_cases.txt");
  // REGRESSION_DIFF_SEED (--test_env=REGRESSION_DIFF_SEED=7) explores other inputs.
  const absl::Status run =
      testing::RunNumpyReference(kernels, kScript, {cases_path}, "REGRESSION_DIFF_SEED");
  ASSERT_TRUE(run.ok()) << run;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  std::map<std::string, Tally> tallies;
  int reported = 0;
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;

    const std::vector<std::string> header = Tokens(block.at(0));
    const std::string& metric = header.at(1);
    const std::string label = absl::StrCat(metric, " case ", header.at(2));
    std::vector<Column> columns;
    for (size_t i = 1; i + 1 < block.size(); ++i) columns.push_back(ParseColumnLine(block[i]));
    absl::StatusOr<double> ours;
    if (metric == "rmse") {
      ASSERT_EQ(columns.size(), 2u) << label;
      ours = RootMeanSquaredError(columns[0], columns[1]);
    } else if (metric == "rmsle") {
      ASSERT_EQ(columns.size(), 2u) << label;
      ours = RootMeanSquaredLogError(columns[0], columns[1]);
    } else {
      ASSERT_EQ(metric, "mcrmsle");
      ASSERT_EQ(columns.size(), 4u) << label;
      ours = MeanColumnWiseRmsle({&columns[0], &columns[1]}, {&columns[2], &columns[3]});
    }

    Tally& tally = tallies[metric];
    const std::vector<std::string> expect = Tokens(line);
    std::string problem;
    if (expect[0] == "ok") {
      ++tally.ok;
      const double reference = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem =
            absl::StrCat("sklearn returned ", reference, ", we failed: ", ours.status().ToString());
      } else if (*ours != reference &&
                 !(kernels == NumpyKernels::kMachine &&
                   std::fabs(*ours - reference) <= MachineKernelTolerance(metric, expect))) {
        problem = absl::StrCat("ours ", *ours, " differs from sklearn 1.5's ", reference, " by ",
                               *ours - reference, " with numpy's ",
                               testing::NumpyKernelsName(kernels), " kernels");
      } else if (expect.at(2) != "-" && !Close(*ours, ParseDouble(expect[2]))) {
        problem = absl::StrCat("ours ", *ours, " vs sklearn's older spelling ",
                               ParseDouble(expect[2]));
      }
    } else {
      ++tally.raise;
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem =
            absl::StrCat("sklearn raised ", expect.at(1), "(", message, "), we returned ", *ours);
      } else if (ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      } else if (ours.status().message() != message) {
        problem = absl::StrCat("message differs: sklearn \"", message, "\", ours \"",
                               ours.status().message(), "\"");
      }
    }
    if (!problem.empty()) {
      ++tally.failures;
      if (++reported <= 25) ADD_FAILURE() << label << ": " << problem;
    }
    block.clear();
  }

  int total = 0;
  for (const auto& [metric, t] : tallies) {
    total += t.ok + t.raise;
    std::cout << testing::NumpyKernelsName(kernels) << " kernels, " << metric << ": " << t.ok << " scored, " << t.raise << " raised, " << t.failures
              << " mismatches\n";
    EXPECT_EQ(t.failures, 0) << metric;
    EXPECT_GT(t.ok, 100) << metric << ": too few scored cases to mean anything";
    EXPECT_GT(t.raise, 50) << metric << ": too few error cases to mean anything";
  }
  EXPECT_EQ(tallies.size(), 3u);
  EXPECT_EQ(total, 1700);
}

INSTANTIATE_TEST_SUITE_P(NumpyKernels, RegressionSklearnDiffTest,
                         ::testing::Values(NumpyKernels::kBaseline, NumpyKernels::kMachine),
                         [](const auto& info) { return testing::NumpyKernelsName(info.param); });

}  // namespace
}  // namespace mlebench
