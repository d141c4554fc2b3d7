#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_MULTILABEL_LOG_LOSS_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_MULTILABEL_LOG_LOSS_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "grading/metrics/matrix_view.h"

namespace mlebench {

// rsna-2022-cervical-spine-fracture-detection's `custom_comp_weighted_loss`:
// per cell, the binary log loss of y_pred clipped to [1e-15, 1 - 1e-15],
// weighted by positive_weights[column] where y_true is 1 and by
// negative_weights[column] where it is 0 (generally
// y * positive + (1 - y) * negative); per row, the weighted losses' sum over
// the columns (left to right, or pairwise as NumpySum when there is only one
// row, as numpy sums upstream's column-major matrices) divided by the
// weights' sum; the result is
// numpy's mean of the rows. NaN inputs propagate to a NaN result, as numpy's
// do. InvalidArgumentError for shapes that differ or do not match the weight
// counts, or no rows.
absl::StatusOr<double> WeightedMultilabelLogLoss(const MatrixView& y_true, const MatrixView& y_pred,
                                                 absl::Span<const double> negative_weights,
                                                 absl::Span<const double> positive_weights);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_MULTILABEL_LOG_LOSS_H_
