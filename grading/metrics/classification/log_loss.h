#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_LOG_LOSS_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_LOG_LOSS_H_

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "grading/metrics/matrix_view.h"

namespace mlebench {

// scikit-learn >= 1.5 `log_loss(y_true, y_pred)` (no sample weights, no
// `labels`), bit for bit:
//  - y_true is either an n x k label-indicator matrix (k >= 2; sklearn's
//    "multilabel-indicator": at most two distinct integral values, used as
//    they are, so one-hot rows pick one log each), or an n x 1 column of
//    numeric labels (sorted; with two labels the greater is positive);
//  - y_pred is n x m probabilities; m = 1 means the positive class's
//    probability p and stands for [1 - p, p];
//  - probabilities are clipped to [eps, 1 - eps] with eps = 2**-52
//    (numpy.finfo(float64).eps) and NOT renormalised (sklearn 1.5 dropped
//    the renormalisation that 1.2 did; rows not summing to one only warn);
//  - the loss is the numpy mean over rows of -sum_j xlogy(y_true, y_pred),
//    where xlogy(0, p) = 0.
//
// InvalidArgumentError with sklearn's message, in sklearn's order:
//  - y_pred empty, or holding NaN/inf ("Input contains NaN.");
//  - row counts differ ("Found input variables with inconsistent numbers of
//    samples: [n_pred, n_true]");
//  - y_true matrix not an indicator matrix ("Multioutput target data is not
//    supported with label binarization", or "Input y contains NaN.");
//    y_true labels not integral ("Unknown label type: ...");
//  - a single label in y_true ("y_true contains only one label (1). Please
//    provide the true labels explicitly through the labels argument.");
//  - class counts differ ("y_true and y_pred contain different number of
//    classes 3, 2. ...").
absl::StatusOr<double> LogLoss(MatrixView y_true, MatrixView y_pred);

// The 1-D form: labels and the positive class's probabilities (binary).
absl::StatusOr<double> LogLoss(absl::Span<const double> y_true, absl::Span<const double> y_pred);

// One term of a row's loss, scipy's xlogy(t, p) with p clipped to
// [eps, 1 - eps]: 0 where t is 0 (the clipped p is never NaN). A row's loss
// is minus the NumpySum of its terms; every log-loss path computes it so.
inline double LogLossTerm(double t, double p) {
  constexpr double kEps = std::numeric_limits<double>::epsilon();  // numpy.finfo(float64).eps
  return t == 0.0 ? 0.0 : t * std::log(std::clamp(p, kEps, 1.0 - kEps));
}

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_LOG_LOSS_H_
