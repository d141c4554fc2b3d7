// Upstream's rsna-2022-cervical-spine-fracture-detection/grade.py: the
// competition's weighted multi-label log loss. Rows are "<StudyInstanceUID>_
// <prediction_type>" with a `fractured` probability; both tables are sorted
// by row_id, checked to hold the same ids, then pivoted back to one row per
// study (sorted) and the columns patient_overall, C1..C7, whose losses are
// weighted 7/14 and 1/2 (negative/positive label).

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/weighted_multilabel_log_loss.h"
#include "grading/metrics/matrix_view.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "row_id";
constexpr char kTargetColumn[] = "fractured";
const std::vector<std::string>& ColumnOrder() {
  static const auto* order = new std::vector<std::string>{"patient_overall", "C1", "C2", "C3",
                                                          "C4", "C5", "C6", "C7"};
  return *order;
}

// `melted` pivoted back: StudyInstanceUID (sorted) x variable -> fractured,
// NaN where a pair is absent. Ids are "<study>_<variable>" (split at the
// first "_"). NotFoundError for a variable of ColumnOrder() that no id has.
absl::StatusOr<std::vector<double>> Unmelt(const std::vector<std::string>& ids,
                                           const std::vector<double>& values, size_t& studies) {
  std::map<std::string, std::map<std::string, double>> pivot;
  std::map<std::string, bool> variables;
  for (size_t row = 0; row < ids.size(); ++row) {
    const size_t split = ids[row].find('_');
    if (split == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("row_id '", ids[row], "' has no '_'"));
    }
    const std::string study = ids[row].substr(0, split), variable = ids[row].substr(split + 1);
    if (!pivot[study].emplace(variable, values[row]).second) {
      return absl::InvalidArgumentError("Index contains duplicate entries, cannot reshape");
    }
    variables[variable] = true;
  }
  for (const std::string& column : ColumnOrder()) {
    if (!variables.count(column)) {
      return absl::NotFoundError(absl::StrCat("no row_id ends in _", column));
    }
  }
  std::vector<double> matrix;
  for (const auto& [study, row] : pivot) {
    for (const std::string& column : ColumnOrder()) {
      auto it = row.find(column);
      matrix.push_back(it == row.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
  }
  studies = pivot.size();
  return matrix;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (const char* column : {kIdColumn, kTargetColumn}) {
    if (submission.Find(column) == nullptr) {
      return InvalidSubmission(absl::StrCat("Submission is missing the `", column, "` column."));
    }
  }
  // `between(0, 1)`: NaN fails it; text cannot be compared (TypeError).
  std::vector<double> submitted;
  for (const Cell& cell : submission.Find(kTargetColumn)->cells) {
    const std::optional<double> value = NumericValue(cell);
    if (!value.has_value()) {
      return InvalidSubmission("Submission `fractured` values must be numbers (text found).");
    }
    if (!(*value >= 0 && *value <= 1)) {
      return InvalidSubmission("Submission `fractured` values must be between 0 and 1.");
    }
    submitted.push_back(*value);
  }
  for (const char* column : {kIdColumn, kTargetColumn}) {
    if (answers.Find(column) == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat("Answers are missing the `", column, "` column."));
    }
  }
  std::vector<double> labels;
  for (const Cell& cell : answers.Find(kTargetColumn)->cells) {
    const std::optional<double> value = NumericValue(cell);
    if (!value.has_value() || (*value != 0 && *value != 1)) {
      return absl::FailedPreconditionError("Answers `fractured` values must be 0 or 1.");
    }
    labels.push_back(*value);
  }

  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*submission.Find(kIdColumn));
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("cannot sort the submission by row_id: ", submission_order.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<size_t> answers_order, SortValuesOrder(*answers.Find(kIdColumn)));
  const Column& submitted_ids = *submission.Find(kIdColumn);
  const Column& answer_ids = *answers.Find(kIdColumn);
  if (submitted_ids.cells.size() != answer_ids.cells.size()) {
    return InvalidSubmission(absl::StrCat("Submission should contain same ids as answers (",
                                          submitted_ids.cells.size(), " rows, expected ",
                                          answer_ids.cells.size(), ")."));
  }
  std::vector<std::string> ids;
  std::vector<double> sorted_pred, sorted_true;
  for (size_t row = 0; row < answer_ids.cells.size(); ++row) {
    const Cell& id = answer_ids.cells[(answers_order)[row]];
    if (!CellsEqual(submitted_ids.cells[(*submission_order)[row]], id)) {
      return InvalidSubmission("Submission should contain same ids as answers.");
    }
    const std::string* text = std::get_if<std::string>(&id);
    if (text == nullptr) return absl::FailedPreconditionError("answers' row_id values must be text");
    ids.push_back(*text);
    sorted_pred.push_back(submitted[(*submission_order)[row]]);
    sorted_true.push_back(labels[(answers_order)[row]]);
  }
  size_t studies = 0;
  absl::StatusOr<std::vector<double>> y_true = Unmelt(ids, sorted_true, studies);
  if (!y_true.ok()) return absl::FailedPreconditionError(y_true.status().message());
  absl::StatusOr<std::vector<double>> y_pred = Unmelt(ids, sorted_pred, studies);
  if (!y_pred.ok()) return absl::FailedPreconditionError(y_pred.status().message());
  return WeightedMultilabelLogLoss(MatrixView{*y_true, studies, 8}, MatrixView{*y_pred, studies, 8},
                                   {7, 1, 1, 1, 1, 1, 1, 1}, {14, 2, 2, 2, 2, 2, 2, 2});
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    // Only what Grade reads: the answers also hold the study and prediction type.
    .answers_csv = {.only_columns = {kIdColumn, kTargetColumn}},
});

}  // namespace mlebench
