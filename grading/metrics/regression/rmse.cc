#include "grading/metrics/regression/rmse.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "pycompat/numpy_sum.h"
#include "grading/metrics/regression_target.h"
#include "grading/metrics/sklearn_checks.h"

namespace mlebench {

absl::StatusOr<double> RootMeanSquaredError(absl::Span<const double> y_true,
                                            absl::Span<const double> y_pred) {
  if (absl::Status s = CheckConsistentLength(y_true.size(), y_pred.size()); !s.ok()) return s;
  if (absl::Status s = CheckRegressionValues(y_true); !s.ok()) return s;
  if (absl::Status s = CheckRegressionValues(y_pred); !s.ok()) return s;
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
  if (absl::Status s = CheckConsistentLength(y_true.cells.size(), y_pred.cells.size()); !s.ok()) {
    return s;
  }
  absl::StatusOr<RegressionTarget> true_values = CheckRegressionTarget(y_true);
  if (!true_values.ok()) return true_values.status();
  absl::StatusOr<RegressionTarget> pred_values = CheckRegressionTarget(y_pred);
  if (!pred_values.ok()) return pred_values.status();
  return RootMeanSquaredError(true_values->values, pred_values->values);
}

}  // namespace mlebench
