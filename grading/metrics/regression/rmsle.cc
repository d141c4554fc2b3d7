#include "grading/metrics/regression/rmsle.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "grading/metrics/regression/rmse.h"
#include "grading/metrics/regression_target.h"
#include "grading/metrics/sklearn_checks.h"

namespace mlebench {
namespace {

// np.log1p(True) in numpy's float16 loop: log1pf(1.0f) rounded to half
// precision (ln 2 = 0.6931... lies between the halves 1419/2048 and
// 1420/2048 and nearer the latter).
constexpr double kLog1pTrueFloat16 = 1420.0 / 2048.0;

std::vector<double> Log1p(const RegressionTarget& target) {
  std::vector<double> out(target.values.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const double v = target.values[i];
    out[i] = target.is_bool ? (v != 0.0 ? kLog1pTrueFloat16 : 0.0) : std::log1p(v);
  }
  return out;
}

bool AnyNegative(const std::vector<double>& values) {
  return std::any_of(values.begin(), values.end(), [](double v) { return v < 0.0; });
}

absl::StatusOr<double> RmsleOfCheckedTargets(const RegressionTarget& y_true,
                                             const RegressionTarget& y_pred) {
  if (AnyNegative(y_true.values) || AnyNegative(y_pred.values)) {
    return absl::InvalidArgumentError(
        "Root Mean Squared Logarithmic Error cannot be used when targets contain negative "
        "values.");
  }
  if (y_true.is_bool && y_pred.is_bool) {
    return absl::UnimplementedError(
        "root_mean_squared_log_error of two bool columns is computed in float16 by "
        "scikit-learn; not reproduced");
  }
  return RootMeanSquaredError(Log1p(y_true), Log1p(y_pred));
}

}  // namespace

absl::StatusOr<double> RootMeanSquaredLogError(const Column& y_true, const Column& y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.cells.size(), y_pred.cells.size()));
  ASSIGN_OR_RETURN(RegressionTarget true_target, CheckRegressionTarget(y_true));
  ASSIGN_OR_RETURN(RegressionTarget pred_target, CheckRegressionTarget(y_pred));
  return RmsleOfCheckedTargets(true_target, pred_target);
}

absl::StatusOr<double> RootMeanSquaredLogError(absl::Span<const double> y_true,
                                               absl::Span<const double> y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.size(), y_pred.size()));
  RETURN_IF_ERROR(CheckRegressionValues(y_true));
  RETURN_IF_ERROR(CheckRegressionValues(y_pred));
  return RmsleOfCheckedTargets(
      RegressionTarget{std::vector<double>(y_true.begin(), y_true.end()), false},
      RegressionTarget{std::vector<double>(y_pred.begin(), y_pred.end()), false});
}

}  // namespace mlebench
