#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_PROBABILISTIC_F1_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_PROBABILISTIC_F1_H_

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// The probabilistic F-beta score of rsna-breast-cancer-detection's grade.py
// (`pfbeta`, a plain Python loop over the rows of two numpy arrays):
//   each prediction is clipped with Python's min(max(p, 0), 1); rows whose
//   label is truthy (Python's `if label:`; NaN and non-empty text are truthy)
//   add it to ctp, the others to cfp; precision = ctp / (ctp + cfp),
//   recall = ctp / (number of truthy labels); the score is
//   (1 + beta^2) * precision * recall / (beta^2 * precision + recall) when
//   both are > 0, else 0 (NaN predictions therefore score 0).
// Python's types decide what raises. Values of an int64/float64/bool column
// are numpy scalars, whose division by zero gives NaN; values of an object
// column, and the clip results 0 (for p < 0) and 1 (for p > 1), are Python
// numbers, whose division by zero raises ZeroDivisionError. So upstream
// raises when no label is truthy, and when ctp and cfp are both Python
// numbers summing to 0 (e.g. every prediction negative); a text prediction
// raises TypeError. Those are InvalidArgumentError here, as are columns of
// different lengths.
absl::StatusOr<double> ProbabilisticFBeta(const Column& labels, const Column& predictions,
                                          double beta);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_PROBABILISTIC_F1_H_
