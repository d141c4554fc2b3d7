#include "grading/metrics/regression/rmse.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "grading/metrics/regression_target.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {

absl::StatusOr<double> RootMeanSquaredError(absl::Span<const double> y_true,
                                            absl::Span<const double> y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.size(), y_pred.size()));
  RETURN_IF_ERROR(CheckRegressionValues(y_true));
  RETURN_IF_ERROR(CheckRegressionValues(y_pred));
  std::vector<double> squares(y_true.size());
  for (size_t i = 0; i < squares.size(); ++i) {
    const double difference = y_true[i] - y_pred[i];
    squares[i] = difference * difference;  // numpy's `** 2` is a plain square
  }
  // np.average over axis 0 of the (n, 1) errors, its square root, then the
  // uniform average of that one output, which changes nothing.
  return std::sqrt(NumpyMean(squares));
}

absl::StatusOr<double> RootMeanSquaredError(const Column& y_true, const Column& y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.cells.size(), y_pred.cells.size()));
  ASSIGN_OR_RETURN(RegressionTarget true_values, CheckRegressionTarget(y_true));
  ASSIGN_OR_RETURN(RegressionTarget pred_values, CheckRegressionTarget(y_pred));
  const bool true_integral = true_values.is_bool || true_values.is_int64;
  const bool pred_integral = pred_values.is_bool || pred_values.is_int64;
  if (true_values.is_bool && pred_values.is_bool) {
    // numpy's TypeError for `y_true - y_pred` of two bool arrays.
    return absl::InvalidArgumentError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
        "`^` operator, or the logical_xor function instead.");
  }
  if (!true_integral || !pred_integral) {
    return RootMeanSquaredError(true_values.values, pred_values.values);
  }
  // int64 arithmetic, wrapping as numpy's does on overflow; np.average then
  // converts each square to float64 for its sum.
  std::vector<double> squares(true_values.ints.size());
  for (size_t i = 0; i < squares.size(); ++i) {
    const uint64_t difference =
        static_cast<uint64_t>(true_values.ints[i]) - static_cast<uint64_t>(pred_values.ints[i]);
    squares[i] = static_cast<double>(static_cast<int64_t>(difference * difference));
  }
  return std::sqrt(NumpyMean(squares));
}

}  // namespace mlebench
