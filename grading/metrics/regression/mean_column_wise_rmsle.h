#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_COLUMN_WISE_RMSLE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_COLUMN_WISE_RMSLE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// Upstream's "mean-column-wise-rmsle" (Kaggle's column-wise RMSLE): the
// RootMeanSquaredLogError of each pair (y_true[i], y_pred[i]), in column
// order, averaged as Python writes it for upstream's two columns,
// (r_1 + r_2 + ... + r_k) / k with the sum taken left to right.
//
// The first column whose RMSLE fails decides the error, returned as
// RootMeanSquaredLogError gives it (Python evaluates the terms in order).
// No columns, or unequal numbers of true and predicted columns, is
// InvalidArgumentError.
absl::StatusOr<double> MeanColumnWiseRmsle(absl::Span<const Column* const> y_true,
                                           absl::Span<const Column* const> y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_COLUMN_WISE_RMSLE_H_
