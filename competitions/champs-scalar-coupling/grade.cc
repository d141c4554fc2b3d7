// Upstream's champs-scalar-coupling/grade.py: for each coupling `type`, the
// log of the mean absolute error of the `scalar_coupling_constant`
// predictions, averaged over types; rows matched by `id`.
//
// Upstream's steps, and what they imply:
//  1. the answers must have `scalar_coupling_constant`, `id` and `type`
//     (asserts: malformed answers);
//  2. the submission must have `scalar_coupling_constant` and `id`, and the
//     SET of its ids must equal the answers' (Python set equality: 5 == 5.0;
//     a NaN id never matches). No row-count check: a repeated id passes;
//  3. `answers.merge(submission, on="id")`, an inner join: each answers row,
//     in order, paired with every submission row holding its id, so a
//     repeated id is scored once per repeat;
//  4. LogMaeByType on the pairs (sklearn's MAE per type raises for
//     non-numeric, NaN or infinite predictions). A type predicted perfectly
//     has log(0) = -inf, so the score is -inf: upstream returns it as is.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/inner_merge.h"
#include "grading/metrics/regression/log_mae_by_type.h"
#include "pycompat/pandas_ops.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kTargetColumn = "scalar_coupling_constant";
constexpr std::string_view kTypeColumn = "type";

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_targets = answers.Find(kTargetColumn);
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_types = answers.Find(kTypeColumn);
  if (answer_targets == nullptr || answer_ids == nullptr || answer_types == nullptr) {
    return MalformedAnswers("expected columns id, type and scalar_coupling_constant");
  }
  if (answers.num_rows() == 0) return MalformedAnswers("no rows");

  const Column* targets = submission.Find(kTargetColumn);
  if (targets == nullptr) {
    return InvalidSubmission(
        "Target column scalar_coupling_constant not found in submission DataFrame.");
  }
  const Column* ids = submission.Find(kIdColumn);
  if (ids == nullptr) return InvalidSubmission("ID column not found in submission DataFrame.");
  if (const size_t differing = SymmetricDifferenceSize(*ids, *answer_ids); differing != 0) {
    return InvalidSubmission(absl::StrCat("Submission's ids differ from the answers' (",
                                          differing, " ids are in only one of them)"));
  }

  Column types{.name = "type", .dtype = answer_types->dtype, .cells = {}};
  Column y_true{.name = "y_true", .dtype = answer_targets->dtype, .cells = {}};
  Column y_pred{.name = "y_pred", .dtype = targets->dtype, .cells = {}};
  for (const auto& [answer_row, row] : InnerMergeRows(*answer_ids, *ids)) {
    types.cells.push_back(answer_types->cells[answer_row]);
    y_true.cells.push_back(answer_targets->cells[answer_row]);
    y_pred.cells.push_back(targets->cells[row]);
  }
  // The answers' own values must pass sklearn's checks: a failure there is
  // not the submission's fault (y_true is checked before y_pred).
  if (absl::StatusOr<double> self = LogMaeByType(types, y_true, y_true); !self.ok()) {
    return MalformedAnswers(std::string(self.status().message()));
  }
  absl::StatusOr<double> score = LogMaeByType(types, y_true, y_pred);
  if (!score.ok()) return InvalidSubmission(std::string(score.status().message()));
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold the molecules and atom indices.
    .answers_csv = {.only_columns = {"id", "type", "scalar_coupling_constant"}},
    // The ids are compared as sets: a repeated row is graded.
    .sample_rows = SampleRows::kEachIdAnyTimes,
});

}  // namespace mlebench
