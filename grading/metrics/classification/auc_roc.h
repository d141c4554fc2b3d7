#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_AUC_ROC_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_AUC_ROC_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "grading/metrics/matrix_view.h"

namespace mlebench {

// sklearn's `roc_auc_score(y_true, y_score)` for 1-D inputs (the binary
// case). Labels are numbers (bools as 0/1): sklearn sorts the two distinct
// labels and treats the greater as positive, so {0, 1}, {-1, 1}, {3, 7} and
// {False, True} all work. (sklearn also accepts string labels, ordered by
// code point; callers holding strings map them to 0/1 in that order.)
//
// The value is scikit-learn 1.5's float bit for bit, not the exact area
// (the Mann-Whitney statistic, which it approximates to ~1e-16): sklearn
// builds roc_curve(drop_intermediate=True), divides the counts into rates
// and sums trapezoids in floating point, so e.g. an exact 0.484375 can come
// out as 0.48437499999999994, which Python's round(score, 5) takes down to
// 0.48437 where the exact value goes up to 0.48438. Upstream's rounded score
// is the contract, so every float operation is sklearn's and numpy's, in
// their order. O(n log n) time (O(n) above a few thousand rows), O(n) memory.
//
// InvalidArgumentError with sklearn's message, checked in sklearn's order:
//  - y_true has NaN/inf among non-integral labels ("Input y_true contains NaN.");
//  - either input is empty ("Found array with 0 sample(s) ...");
//  - y_score has NaN/inf ("Input contains NaN.");
//  - y_true has more than two labels ("multi_class must be in ('ovo', 'ovr')")
//    or non-integral ones ("continuous format is not supported");
//  - y_true has one label ("Only one class present in y_true. ROC AUC score
//    is not defined in that case.");
//  - lengths differ ("Found input variables with inconsistent numbers of
//    samples: [n_true, n_score]").
absl::StatusOr<double> RocAucScore(absl::Span<const double> y_true,
                                   absl::Span<const double> y_score);

// One point of a ROC curve as counts: false and true positives at or above
// a threshold.
struct RocCount {
  uint64_t fp = 0;
  uint64_t tp = 0;
};

// sklearn's roc_curve(y_true, y_score, drop_intermediate=True) for labels
// where 1.0 is the positive class, as the counts of its points (fpr and tpr
// are fp / points.back().fp and tp / points.back().tp): (0, 0) first, then
// the points RocAucScore integrates. Scores must be finite (callers check,
// as sklearn does); lengths must agree.
std::vector<RocCount> RocCurveCounts(absl::Span<const double> y_true,
                                     absl::Span<const double> y_score);

// The checks RocAucScore makes on y_true alone (every one above that does
// not involve y_score). Graders use it to tell malformed answers from a bad
// submission.
absl::Status CheckRocAucTrue(absl::Span<const double> y_true);

// sklearn's `roc_auc_score(Y_true, Y_score)` (average="macro") for n x k
// label-indicator matrices with k >= 2: the unweighted mean (np.mean) over
// columns of each column's binary AUC, each as RocAucScore computes it. Y_true must be an indicator matrix in sklearn's
// sense (at most two distinct integral values overall) whose every column
// holds both 0 and 1 (or -1 and 1); errors as sklearn words them ("Only one
// class present in y_true...", "y_true takes value in {0, 2} and pos_label is
// not specified..."). Y_score with more columns fails where sklearn's loop
// does, with numpy's IndexError message ("index k is out of bounds for axis 1
// with size k"); unlike sklearn, which silently scores only Y_score's columns,
// fewer columns is an error. A single column (k = 1) is the binary case above.
absl::StatusOr<double> MacroRocAucScore(MatrixView y_true, MatrixView y_score);

// The checks MacroRocAucScore makes on Y_true alone (every one above that
// does not involve Y_score), so that graders can tell malformed answers from
// a bad submission. A column with a single class fails here, as in
// scikit-learn 1.5 (which raises); scikit-learn >= 1.6 instead warns and
// scores that column NaN, so no submission gets a usable score either way.
absl::Status CheckMacroRocAucTrue(MatrixView y_true);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_AUC_ROC_H_
