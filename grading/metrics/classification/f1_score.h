#ifndef MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_H_
#define MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_H_

// scikit-learn (>= 1.5) `precision_recall_fscore_support` / `fbeta_score` /
// `f1_score` with average="micro" or "macro", for multiclass label vectors and
// for multilabel label sets (what MultiLabelBinarizer + f1_score computes).
// All entry points reduce to per-label counts and share one scoring function,
// so F1 is simply beta = 1 and F0.5 is beta = 0.5.
//
// Scoring follows sklearn >= 1.5 (the version upstream pins), which differs in
// rounding from older releases (sklearn 1.2 computed F from precision and
// recall; 1.5 computes it from counts):
//   precision = tp / predicted, recall = tp / actual,
//   F = (1 + beta^2) * tp / (beta^2 * actual + predicted),
//   F = recall for beta = +inf, F = precision for beta = 0;
// each division by zero yields `zero_division`. "micro" sums the counts over
// all labels before dividing; "macro" divides per label and takes the
// unweighted mean (numpy's pairwise sum / count) over labels, skipping NaN
// entries (which only arise with zero_division = NaN); NaN with no labels or
// all entries NaN.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

enum class FScoreAverage { kMicro, kMacro };

struct FScoreOptions {
  // >= 0; +inf allowed.
  double beta = 1.0;
  FScoreAverage average = FScoreAverage::kMicro;
  // sklearn's zero_division: its default "warn" and 0 both give 0.0; also
  // allowed are 1.0 and NaN (np.nan). Anything else is an error, as sklearn's
  // parameter validation raises.
  double zero_division = 0.0;
};

struct PrecisionRecallFScore {
  double precision = 0.0;
  double recall = 0.0;
  double f_score = 0.0;
};

// The counts of one label.
struct LabelCounts {
  int64_t true_positives = 0;
  int64_t predicted = 0;  // tp + fp
  int64_t actual = 0;     // tp + fn (sklearn's "support")
};

// Scores from per-label counts (in sklearn's label order, i.e. sorted; the
// order only matters to the rounding of "macro"). InvalidArgumentError for a
// negative or NaN beta, a zero_division other than 0, 1 or NaN, or counts that
// are inconsistent (negative, or true_positives above predicted or actual).
absl::StatusOr<PrecisionRecallFScore> PrecisionRecallFScoreFromCounts(
    absl::Span<const LabelCounts> per_label, const FScoreOptions& options);

// Multiclass (or binary, with average micro/macro) targets: row i has true
// label y_true[i] and predicted label y_pred[i]. The labels are the sorted
// union of both vectors (strings compare by bytes, which for UTF-8 is numpy's
// code point order), so labels present only in y_pred count for "macro" (with
// F = 0). "micro" equals accuracy here. Empty vectors give micro zero_division
// and macro NaN, as sklearn returns.
// InvalidArgumentError: lengths differ, or the options are invalid.
// sklearn's target-type checks (continuous values, mixed strings and numbers)
// are the caller's business, e.g. with TypeOfTarget from accuracy.h.
absl::StatusOr<PrecisionRecallFScore> MulticlassPrecisionRecallFScore(
    const std::vector<std::string>& y_true, const std::vector<std::string>& y_pred,
    const FScoreOptions& options);
absl::StatusOr<PrecisionRecallFScore> MulticlassPrecisionRecallFScore(
    const std::vector<int64_t>& y_true, const std::vector<int64_t>& y_pred,
    const FScoreOptions& options);

// The F-score alone of the above (f1_score / fbeta_score).
absl::StatusOr<double> MulticlassFScore(const std::vector<std::string>& y_true,
                                        const std::vector<std::string>& y_pred,
                                        const FScoreOptions& options);
absl::StatusOr<double> MulticlassFScore(const std::vector<int64_t>& y_true,
                                        const std::vector<int64_t>& y_pred,
                                        const FScoreOptions& options);
// The same on views of the labels' text (bytes the caller keeps alive).
absl::StatusOr<double> MulticlassFScore(std::span<const std::string_view> y_true,
                                        std::span<const std::string_view> y_pred,
                                        const FScoreOptions& options);

// Multilabel targets as label sets:
//   mlb = MultiLabelBinarizer(classes=classes, sparse_output=True)
//   f1_score(mlb.fit_transform(y_true), mlb.transform(y_pred), average=...)
// with fbeta_score's beta. Within a row, duplicate labels count once, and
// labels not in `classes` are ignored (on both sides; MultiLabelBinarizer
// only warns). Labels are the classes in the given order.
// InvalidArgumentError: lengths differ; `classes` holds a duplicate
// (MultiLabelBinarizer raises); fewer than two classes (the binarized
// matrices are not multilabel-indicator for sklearn, which then raises:
// "unknown is not supported" for none, a TypeError about sparse input for
// one); invalid options.
absl::StatusOr<PrecisionRecallFScore> MultilabelPrecisionRecallFScore(
    const std::vector<std::vector<std::string>>& y_true,
    const std::vector<std::vector<std::string>>& y_pred, const std::vector<std::string>& classes,
    const FScoreOptions& options);

// The F-score alone of the above.
absl::StatusOr<double> MultilabelFScore(const std::vector<std::vector<std::string>>& y_true,
                                        const std::vector<std::vector<std::string>>& y_pred,
                                        const std::vector<std::string>& classes,
                                        const FScoreOptions& options);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CLASSIFICATION_F1_SCORE_H_
