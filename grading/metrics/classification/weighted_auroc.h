#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_AUROC_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_AUROC_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// Upstream's alaska2-image-steganalysis `alaska_weighted_auc(y_true,
// y_pred)`, bit for bit: the ROC curve of scikit-learn's
// `roc_curve(y_true, y_pred, pos_label=1)` (drop_intermediate=True), with the
// TPR thresholds 0.0, 0.4 and 1.0 inserted where missing (FPR linearly
// interpolated at the first point above the threshold); then the areas of the
// horizontal bands TPR in [0, 0.4] and [0.4, 1] (each band's points plus
// (1, top), shifted down to start at 0, through sklearn's `auc`), weighted
// 2 and 1, over np.dot([0.4, 0.6], [2, 1]). A perfect ranking scores 1, a
// constant prediction 0.82 / 1.4.
//
// Positives are the rows with y_true == 1 (any other label is negative, as
// with pos_label=1). Like upstream: without positives every TPR is NaN and
// the score is 0.0; without negatives every FPR is NaN and so is the score.
//
// InvalidArgumentError where scikit-learn raises: lengths differ
// ("Found input variables with inconsistent numbers of samples"), no rows,
// non-finite y_true ("Input y_true contains NaN."), non-integral y_true
// ("continuous format is not supported"), non-finite y_pred ("Input contains
// NaN" / "Input contains infinity"), or rounding making a band's FPRs
// non-monotonic ("x is neither increasing nor decreasing").
absl::StatusOr<double> AlaskaWeightedAuc(absl::Span<const double> y_true,
                                         absl::Span<const double> y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_WEIGHTED_AUROC_H_
