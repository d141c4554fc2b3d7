// Upstream's stanford-covid-vaccine/grade.py. The config names the grader
// "multi-class-log-loss", but grade.py computes MCRMSE: the mean over
// reactivity, deg_Mg_pH10 and deg_Mg_50C of sklearn's root_mean_squared_error
// on the answer rows whose `keep` is True. competitions.tsv keeps the config's
// name; we follow grade.py's computation.
//
// Upstream's steps, and what they imply:
//  1. the submission must have as many rows as the answers;
//  2. the answers must have id_seqpos, the three scored columns and keep
//     (an assert: malformed answers);
//  3. the submission must have id_seqpos, the three scored columns and
//     deg_pH10 and deg_50C (the last two are required but never scored);
//  4. both are sorted by id_seqpos (pandas sort_values) and must list the
//     same ids row by row;
//  5. quirk reproduced: `sorted_submission[sorted_answers["keep"]]` aligns
//     the boolean mask by index LABEL, not by position. Both frames carry
//     their original row labels 0..n-1, so submission row r (original label
//     r) is kept when the ANSWERS' original row r has keep True. A submission
//     in the answers' row order is masked correctly; a shuffled one is masked
//     with other rows' flags, silently, and scored on misaligned rows;
//  6. per scored column, root_mean_squared_error(kept answers, kept
//     submission) (a non-numeric or non-finite prediction makes sklearn
//     raise: invalid), then np.mean of the three.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/regression/rmse.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id_seqpos";
constexpr std::string_view kKeepColumn = "keep";
constexpr std::string_view kScoredColumns[] = {"reactivity", "deg_Mg_pH10", "deg_Mg_50C"};
constexpr std::string_view kUnscoredColumns[] = {"deg_pH10", "deg_50C"};

// pandas' truth value of a `keep` cell used as a boolean mask; nullopt when
// the column cannot be a mask.
std::optional<bool> MaskValue(const Cell& cell) {
  if (const bool* value = std::get_if<bool>(&cell)) return *value;
  return std::nullopt;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Expected submission to be the same length as answers, but got ", submission.num_rows(),
        " instead of ", answers.num_rows(), "."));
  }
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* keep = answers.Find(kKeepColumn);
  if (answer_ids == nullptr || keep == nullptr) {
    return MalformedAnswers(
        "expected columns id_seqpos, reactivity, deg_Mg_pH10, deg_Mg_50C, keep");
  }
  for (std::string_view name : kScoredColumns) {
    if (answers.Find(name) == nullptr)
      return MalformedAnswers(absl::StrCat("missing column ", std::string(name)));
  }
  bool has_columns = submission.Find(kIdColumn) != nullptr;
  for (std::string_view name : kScoredColumns) has_columns &= submission.Find(name) != nullptr;
  for (std::string_view name : kUnscoredColumns) has_columns &= submission.Find(name) != nullptr;
  if (!has_columns) {
    return InvalidSubmission(
        "Expected the submission to have columns id_seqpos, reactivity, deg_Mg_pH10, "
        "deg_Mg_50C, deg_pH10, deg_50C");
  }
  const Column& ids = *submission.Find(kIdColumn);

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(ids);
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("id_seqpos cannot be sorted: ", std::string(order.status().message())));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  for (size_t i = 0; i < order->size(); ++i) {
    if (!CellsEqual(ids.cells[(*order)[i]], answer_ids->cells[(*answer_order)[i]])) {
      return InvalidSubmission(absl::StrCat(
          "Expected submission to have the same `id_seqpos` as answers; they differ on row ", i,
          " of the sorted submission."));
    }
  }

  // The label-aligned mask (step 5): a submission row with original label r
  // is kept when answers row r is; answer rows are kept by their own flag.
  std::vector<size_t> kept_submission_rows, kept_answer_rows;
  for (size_t i = 0; i < order->size(); ++i) {
    const std::optional<bool> submission_flag = MaskValue(keep->cells[(*order)[i]]);
    const std::optional<bool> answer_flag = MaskValue(keep->cells[(*answer_order)[i]]);
    if (!submission_flag.has_value() || !answer_flag.has_value()) {
      return MalformedAnswers("keep must hold only True/False");
    }
    if (*submission_flag) kept_submission_rows.push_back((*order)[i]);
    if (*answer_flag) kept_answer_rows.push_back((*answer_order)[i]);
  }

  std::vector<double> errors;
  for (std::string_view name : kScoredColumns) {
    const Column y_true = TakeCells(*answers.Find(name), kept_answer_rows);
    const Column y_pred = TakeCells(*submission.Find(name), kept_submission_rows);
    absl::StatusOr<double> error = RootMeanSquaredError(y_true, y_pred);
    if (!error.ok()) {
      // sklearn raises for the submission's values (non-numeric, NaN or
      // infinite) or, were the answers broken, for theirs; the answers are
      // checked by the same call, so tell the two apart by checking them alone.
      absl::StatusOr<double> answers_alone = RootMeanSquaredError(y_true, y_true);
      if (!answers_alone.ok())
        return MalformedAnswers(std::string(answers_alone.status().message()));
      return InvalidSubmission(
          absl::StrCat("Cannot score ", std::string(name), ": ", std::string(error.status().message())));
    }
    errors.push_back(*error);
  }
  return NumpyMean(errors);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    // config.yaml's name; the computation is MCRMSE (see above).
    .grade = &Grade,
});

}  // namespace mlebench
