// Upstream's petfinder-pawpularity-score/grade.py: the root mean squared
// error of the `Pawpularity` predictions, aligned on `Id`.
//
// Upstream's steps, and what they imply:
//  1. the answers must have `Id` and `Pawpularity` in [1, 100] (asserts:
//     malformed answers);
//  2. the submission must have both columns, and every prediction must lie
//     in [1, 100] (pandas' `between`: a missing value fails it, text makes
//     it raise, booleans count as 0/1);
//  3. both sorted by Id must list the same ids row by row; upstream has no
//     row-count check, but a count that differs either fails that
//     comparison or makes numpy or sklearn raise, so it is rejected too;
//  4. sklearn's root_mean_squared_error.

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/regression/rmse.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "Id";
constexpr std::string_view kTargetColumn = "Pawpularity";

// The column's values when every one is a number in [1, 100] (pandas'
// `between(1, 100).all()`), else nullopt.
std::optional<std::vector<double>> ValuesBetween1And100(const Column& column) {
  std::vector<double> values;
  values.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    const std::optional<double> value = NumericValue(cell);
    // NaN fails both comparisons, as in pandas.
    if (!value.has_value() || !(*value >= 1.0 && *value <= 100.0)) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_targets = answers.Find(kTargetColumn);
  if (answer_ids == nullptr || answer_targets == nullptr) {
    return MalformedAnswers("expected columns Id and Pawpularity");
  }
  const std::optional<std::vector<double>> y_true_unsorted = ValuesBetween1And100(*answer_targets);
  if (!y_true_unsorted.has_value()) return MalformedAnswers("Pawpularity must lie in [1, 100]");

  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) return InvalidSubmission("Missing Id column in submission");
  const Column* targets = submission.Find(kTargetColumn);
  if (targets == nullptr) return InvalidSubmission("Missing Pawpularity column in submission");
  const std::optional<std::vector<double>> y_pred_unsorted = ValuesBetween1And100(*targets);
  if (!y_pred_unsorted.has_value()) {
    return InvalidSubmission("Pawpularity in submission should be between 1 and 100");
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    return InvalidSubmission(absl::StrCat("Id cannot be sorted: ", order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  if (order->size() != answer_order->size()) {
    return InvalidSubmission(absl::StrCat("Expected ", answer_order->size(),
                                          " rows in submission, got ", order->size()));
  }
  std::vector<double> y_true, y_pred;
  for (size_t i = 0; i < order->size(); ++i) {
    if (!CellsEqual(ids->cells[(*order)[i]], answer_ids->cells[(*answer_order)[i]])) {
      return InvalidSubmission("IDs in submission do not match IDs in answers");
    }
    y_true.push_back((*y_true_unsorted)[(*answer_order)[i]]);
    y_pred.push_back((*y_pred_unsorted)[(*order)[i]]);
  }
  absl::StatusOr<double> score = RootMeanSquaredError(y_true, y_pred);
  if (!score.ok()) {
    // Both sides are checked finite and equally long above; only empty
    // answers remain, which no submission can be scored against.
    return MalformedAnswers(std::string(score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {std::string(kIdColumn)}},
    // Only what Grade reads: the answers also hold the photo metadata.
    .answers_csv = {.string_columns = {std::string(kIdColumn)},
                    .only_columns = {std::string(kIdColumn), std::string(kTargetColumn)}},
});

}  // namespace mlebench
