#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_RMSLE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_RMSLE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// scikit-learn 1.5 `root_mean_squared_log_error(y_true, y_pred)` for 1-D
// targets without sample weights, bit for bit:
// root_mean_squared_error(np.log1p(y_true), np.log1p(y_pred)).
// Unlike root_mean_squared_error, sklearn 1.5 checks these inputs with
// dtype="numeric", which keeps a bool column bool; np.log1p then computes it
// in float16, so True counts as log1p(1) rounded to float16, 0.693359375
// (not ln 2 = 0.6931471805599453).
//
// InvalidArgumentError with sklearn's message, in sklearn's order: lengths
// differ; y_true, then y_pred, fails check_array (an unconvertible string,
// a non-finite value, no values: see CheckRegressionTarget); a value below
// zero in either ("Root Mean Squared Logarithmic Error cannot be used when
// targets contain negative values."; -0.0 is not below zero). scikit-learn
// >= 1.6 accepts values in (-1, 0) and rejects only <= -1; upstream pins
// 1.5.1, whose rule this is.
// Both inputs bool would make sklearn do all of its arithmetic in float16,
// which is not reproduced: UnimplementedError.
absl::StatusOr<double> RootMeanSquaredLogError(const Column& y_true, const Column& y_pred);

// The same on float64 inputs.
absl::StatusOr<double> RootMeanSquaredLogError(absl::Span<const double> y_true,
                                               absl::Span<const double> y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_RMSLE_H_
