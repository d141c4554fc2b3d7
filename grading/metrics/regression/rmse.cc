#include "grading/metrics/regression/rmse.h"

#include <cmath>
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
  return RootMeanSquaredError(true_values.values, pred_values.values);
}

}  // namespace mlebench
