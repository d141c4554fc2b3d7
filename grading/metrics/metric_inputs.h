#ifndef MLEBENCH_GRADING_METRICS_METRIC_INPUTS_H_
#define MLEBENCH_GRADING_METRICS_METRIC_INPUTS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "grading/metrics/matrix_view.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Upstream's shared grading helpers (mlebench/competitions/utils.py:
// prepare_for_accuracy_metric, prepare_for_auroc_metric,
// one_hot_dfs_to_log_loss_inputs): they check a submission against the
// answers, align both by id and hand the metric its inputs. Each check runs
// in upstream's order and has upstream's outcome for every pandas dtype.
//
// Errors: a submission that upstream rejects (InvalidSubmissionError, or any
// exception raised because of the submission) gives InvalidSubmission(reason)
// (grading/grader.h); answers that upstream's asserts reject, or that no
// valid submission could be scored against, give FailedPreconditionError.

// Aligns ids for sklearn's accuracy_score: lengths equal, both columns
// present, both tables sorted by id (pandas' sort_values), ids equal row by
// row. The answers' target must be a label column (sklearn's binary or
// multiclass), so that AccuracyScore's errors always blame the submission.
// AccuracyScore(inputs) below is the only metric these inputs are for.
//
// Where both targets are int64 (typed columns), no cell is made: `int64`
// holds the two label columns as they lie in the tables (views, valid while
// the tables live) and the orders that pair them, and y_true/y_pred stay
// empty. int64 labels are always binary or multiclass, so accuracy_score
// cannot fail on them. Where both id columns also hold the same ids in the
// same rows (none missing) the orders are empty: every row pairs with
// itself, and accuracy counts equal pairs whatever their order.
struct AccuracyInputs {
  struct Int64Labels {
    std::span<const int64_t> y_true;  // answers[target], file order
    std::span<const int64_t> y_pred;  // submission[target], file order
    std::vector<size_t> true_order;   // y_true's rows in id order; empty: file order
    std::vector<size_t> pred_order;   // y_pred's rows in the same id order
  };
  Column y_true;  // answers[target] in id order, unless `int64` is set
  Column y_pred;  // submission[target] in the same order, unless `int64` is set
  std::optional<Int64Labels> int64;
};
absl::StatusOr<AccuracyInputs> PrepareForAccuracyMetric(const TypedTable& submission,
                                                        const TypedTable& answers,
                                                        std::string_view id_column,
                                                        std::string_view target_column);
absl::StatusOr<AccuracyInputs> PrepareForAccuracyMetric(const Table& submission,
                                                        const Table& answers,
                                                        std::string_view id_column,
                                                        std::string_view target_column);

// sklearn's accuracy_score on the aligned labels: AccuracyScore(y_true,
// y_pred) (grading/metrics/classification/accuracy.h), with its errors, or
// the fraction of equal int64 pairs where `inputs.int64` is set.
absl::StatusOr<double> AccuracyScore(const AccuracyInputs& inputs);

// Checks and aligns for sklearn's roc_auc_score: both columns present,
// lengths equal, the target numeric (pd.to_numeric raising on a non-numeric
// string), min >= 0 and max <= 1 (NaN skipped, as pandas does), ids equal
// after sorting. NaN scores pass here, as upstream, and make RocAucScore
// fail. The answers' target must be numeric labels that CheckRocAucTrue
// accepts.
struct AurocInputs {
  std::vector<double> y_true;   // answers[target] in id order; bools as 0/1
  std::vector<double> y_score;  // submission[target] in id order; missing as NaN
};
absl::StatusOr<AurocInputs> PrepareForAurocMetric(const TypedTable& submission,
                                                  const TypedTable& answers,
                                                  std::string_view id_column,
                                                  std::string_view target_column);
absl::StatusOr<AurocInputs> PrepareForAurocMetric(const Table& submission, const Table& answers,
                                                  std::string_view id_column,
                                                  std::string_view target_column);

// Aligns one-hot tables for sklearn's log_loss (upstream's call with
// apply_softmax=False; the softmax branch is not implemented): the
// submission's columns must include all of the answers' (extra ones are
// dropped), both are sorted by id and must then list the same ids. The
// matrices keep the answers' column order, without the id column.
// Probabilities convert as numpy's float conversion does (bools 0/1,
// numeric strings parsed, missing as NaN, which log_loss rejects). The
// answers' class columns must hold only 0 and 1.
struct LogLossInputs {
  std::vector<double> y_true;  // rows x cols, row-major
  std::vector<double> y_pred;  // rows x cols, row-major
  size_t rows = 0;
  size_t cols = 0;

  MatrixView true_view() const { return {y_true, rows, cols}; }
  MatrixView pred_view() const { return {y_pred, rows, cols}; }
};
absl::StatusOr<LogLossInputs> OneHotTablesToLogLossInputs(const TypedTable& submission,
                                                          const TypedTable& answers,
                                                          std::string_view id_column);
absl::StatusOr<LogLossInputs> OneHotTablesToLogLossInputs(const Table& submission,
                                                          const Table& answers,
                                                          std::string_view id_column);

// Upstream's one-hot log-loss grading in one call: OneHotTablesToLogLossInputs
// then LogLoss, whose rejections are the submission's
// (InvalidSubmission("log_loss rejects the submission: <sklearn's message>")).
// The same score bit for bit, without the row-major matrices when every
// value is a number: row losses are computed where the columns lie and
// summed in id order.
absl::StatusOr<double> OneHotLogLossAlignedOnIds(const TypedTable& submission,
                                                 const TypedTable& answers,
                                                 std::string_view id_column);
absl::StatusOr<double> OneHotLogLossAlignedOnIds(const Table& submission, const Table& answers,
                                                 std::string_view id_column);

// pandas' `pd.to_numeric` on one string: optional surrounding spaces, sign,
// digits, decimal point, exponent; or exactly "inf"/"infinity" (any case,
// optional sign, no spaces). nullopt where to_numeric raises "Unable to parse
// string" ("nan", "1_0", "0x10", "1,5" included).
std::optional<double> ParseNumericString(std::string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_METRIC_INPUTS_H_
