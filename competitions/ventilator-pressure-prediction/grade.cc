// Upstream's ventilator-pressure-prediction/grade.py: the mean absolute
// error of the `pressure` predictions over the inspiratory phase (answers
// rows with u_out == 0), rows matched by `id`.
//
// Upstream's config.yaml names this grader "dice-hausdorff-combo", a name
// copied from another competition; grade.py computes sklearn's
// mean_absolute_error, which is what we implement. competitions.tsv keeps
// config.yaml's name, since it is upstream's grader name.
//
// Upstream's steps, and what they imply:
//  1. the answers must have `id` and `pressure` (asserts), and `u_out`
//     (KeyError): malformed answers otherwise;
//  2. the submission must have `id` and `pressure`, and as many rows as the
//     answers;
//  3. both sorted by id (pandas sort_values; ids Python cannot order make it
//     raise) must list equal ids position by position (numpy `!=`: numbers
//     by value, a missing id equals nothing);
//  4. the rows whose answer has u_out == 0, in id order, go to sklearn's
//     mean_absolute_error (non-numeric, NaN or infinite predictions raise).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/regression/mean_absolute_error.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/regression_target.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kTargetColumn = "pressure";
constexpr std::string_view kPhaseColumn = "u_out";

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_targets = answers.Find(kTargetColumn);
  const Column* answer_phases = answers.Find(kPhaseColumn);
  if (answer_ids == nullptr || answer_targets == nullptr || answer_phases == nullptr) {
    return MalformedAnswers("expected columns id, pressure and u_out");
  }

  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) return InvalidSubmission("Submission must contain the 'id' column");
  const Column* targets = submission.Find(kTargetColumn);
  if (targets == nullptr) return InvalidSubmission("Submission must contain the 'pressure' column");
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission("Submission and answers must have the same length");
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    return InvalidSubmission(absl::StrCat("id cannot be sorted: ", order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  for (size_t i = 0; i < order->size(); ++i) {
    if (!CellsEqual(ids->cells[(*order)[i]], answer_ids->cells[(*answer_order)[i]])) {
      return InvalidSubmission("Submission and answers must be aligned in id order");
    }
  }

  // The expiratory phase (u_out == 1) is not scored.
  Column y_true{.name = "y_true", .dtype = answer_targets->dtype, .cells = {}};
  Column y_pred{.name = "y_pred", .dtype = targets->dtype, .cells = {}};
  for (size_t i = 0; i < order->size(); ++i) {
    const size_t answer_row = (*answer_order)[i];
    const std::optional<double> phase = NumericValue(answer_phases->cells[answer_row]);
    if (!phase.has_value() || *phase != 0.0) continue;
    y_true.cells.push_back(answer_targets->cells[answer_row]);
    y_pred.cells.push_back(targets->cells[(*order)[i]]);
  }
  // Checked first by sklearn: a problem here is the answers'.
  if (absl::Status s = CheckRegressionTarget(y_true).status(); !s.ok()) {
    return MalformedAnswers(std::string(s.message()));
  }
  absl::StatusOr<double> score = MeanAbsoluteError(y_true, y_pred);
  if (!score.ok()) return InvalidSubmission(std::string(score.status().message()));
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold the breaths' other measurements.
    .answers_csv = {.only_columns = {"id", "pressure", "u_out"}},
});

}  // namespace mlebench
