#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_MATTHEWS_CORRELATION_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_MATTHEWS_CORRELATION_H_

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// scikit-learn (>= 1.5) `matthews_corrcoef(y_true, y_pred)` on two pandas
// columns, binary or multiclass: from the confusion matrix C over the sorted
// union of labels (numbers by value, strings by content),
//   cov(t, p) = trace(C) * n - t_sum . p_sum,
//   MCC = cov(t, p) / sqrt(cov(t, t) * cov(p, p)),
// and 0.0 where cov(t, t) * cov(p, p) is 0 (a constant column).
// InvalidArgumentError where sklearn raises: every case AccuracyScore
// rejects (sklearn's _check_targets: lengths, NaN, continuous or unknown
// targets, type mixes, string against number labels), string and number
// labels mixed in a multiclass problem (LabelEncoder cannot sort them), and
// empty columns.
absl::StatusOr<double> MatthewsCorrCoef(const Column& y_true, const Column& y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_MATTHEWS_CORRELATION_H_
