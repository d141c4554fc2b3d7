#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_RMSE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_RMSE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// scikit-learn 1.5 `root_mean_squared_error(y_true, y_pred)` for 1-D targets
// without sample weights, bit for bit: sqrt(np.mean((y_true - y_pred) ** 2)),
// the mean summed as numpy sums (NumpyMean).
//
// InvalidArgumentError with sklearn's message, in sklearn's order: lengths
// differ ("Found input variables with inconsistent numbers of samples: [a,
// b]"); then for y_true and then y_pred, a value that does not convert
// (columns only), a non-finite value, or no values at all (see
// CheckRegressionValues).
//
// A result too large for a double is +inf, as numpy's overflowing squares
// make it.
absl::StatusOr<double> RootMeanSquaredError(absl::Span<const double> y_true,
                                            absl::Span<const double> y_pred);

// The same on pandas columns as read from CSV, converted as check_array does
// (ToRegressionTarget, dtype="numeric": bool and int64 stay what they are).
// As in numpy, `y_true - y_pred` of two bool columns is an error (TypeError:
// InvalidArgumentError with numpy's message), and of two int64/bool columns is
// int64 arithmetic, the difference and its square wrapping on overflow,
// converted to float64 for the mean. (scikit-learn 1.6 casts to float64
// first; upstream's pinned 1.5.1 does not.)
absl::StatusOr<double> RootMeanSquaredError(const Column& y_true, const Column& y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_RMSE_H_
