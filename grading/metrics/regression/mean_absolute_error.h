#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ABSOLUTE_ERROR_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ABSOLUTE_ERROR_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// scikit-learn 1.5 `mean_absolute_error(y_true, y_pred)` for 1-D targets
// without sample weights: np.mean(np.abs(y_pred - y_true)), the mean summed
// as numpy sums (NumpyMean), so results are bit for bit sklearn's.
//
// Unlike root_mean_squared_error, sklearn 1.5's MAE keeps check_array's
// "numeric" dtypes: two int64 (or int64 and bool) columns are subtracted in
// int64, wrapping on overflow as numpy does, before the float64 mean; two
// bool columns make numpy raise TypeError ("numpy boolean subtract, ..."),
// returned as InvalidArgumentError with numpy's message.
//
// InvalidArgumentError with sklearn's message, in sklearn's order: lengths
// differ ("Found input variables with inconsistent numbers of samples: [a,
// b]"); then for y_true and then y_pred, a value that does not convert
// (columns only), a non-finite value, or no values at all (see
// CheckRegressionValues). A sum too large for a double is +inf, as in numpy.
absl::StatusOr<double> MeanAbsoluteError(absl::Span<const double> y_true,
                                         absl::Span<const double> y_pred);

// The same on pandas columns as read from CSV, converted as check_array does
// (ToRegressionTarget).
absl::StatusOr<double> MeanAbsoluteError(const Column& y_true, const Column& y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ABSOLUTE_ERROR_H_
