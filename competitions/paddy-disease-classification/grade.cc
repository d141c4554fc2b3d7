// Upstream's paddy-disease-classification/grade.py: the fraction of test
// images whose disease `label` is predicted exactly, aligned on `image_id`.
//
// Upstream's steps, and what they imply:
//  1. the answers must hold `image_id` and `label` and no NaN anywhere
//     (asserts: malformed answers here);
//  2. the submission must hold `image_id` and `label` (extra columns are
//     allowed), then have as many rows as the answers;
//  3. both are sorted by image_id and must list the same ids row by row
//     (so a repeated or unknown id is rejected);
//  4. missing predicted labels become "" (`fillna("")`) and the rest go to
//     sklearn's accuracy_score as a Python list. A column with missing
//     values is then a list mixing "" with the other values, which numpy
//     turns into an array of their str() forms; a column without missing
//     values keeps its type (so e.g. non-integral numbers are "continuous"
//     and rejected by sklearn).

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/classification/accuracy.h"
#include "pycompat/pandas_ops.h"
#include "base/python_float.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "image_id";
constexpr std::string_view kLabelColumn = "label";

// Python's str() of a cell, as numpy stringifies it when a list mixes it
// with text; missing values are "" (they were filled with "" first).
std::string PythonStr(const Cell& cell) {
  if (IsMissing(cell)) return "";
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat(*i);
  return FormatPythonFloat(std::get<double>(cell));
}

// `submission["label"].fillna("").tolist()` as sklearn sees it.
Column PredictedLabels(const Column& labels) {
  bool any_missing = false;
  for (const Cell& cell : labels.cells) any_missing = any_missing || IsMissing(cell);
  if (!any_missing) return labels;
  Column text{labels.name, Dtype::kObject, {}};
  text.cells.reserve(labels.cells.size());
  for (const Cell& cell : labels.cells) text.cells.push_back(PythonStr(cell));
  return text;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find(kIdColumn);
  const Column* answer_labels = answers.Find(kLabelColumn);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return MalformedAnswers("expected columns image_id and label");
  }
  for (const Column& column : answers.columns()) {
    for (const Cell& cell : column.cells) {
      if (IsMissing(cell)) return MalformedAnswers("Answers contain NaN values");
    }
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  const Column y_true = TakeCells(*answer_labels, *answer_order);
  // Labels sklearn could not score against any submission are the answers'
  // fault, not the submission's.
  if (absl::StatusOr<TargetType> type = TypeOfTarget(y_true, "y_true");
      !type.ok() || (*type != TargetType::kBinary && *type != TargetType::kMulticlass)) {
    return MalformedAnswers("the labels are not class labels");
  }

  const Column* ids = submission.Find(kIdColumn);
  const Column* labels = submission.Find(kLabelColumn);
  if (ids == nullptr || labels == nullptr) {
    return InvalidSubmission("Expected columns {'image_id', 'label'} in the submission");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected ", answers.num_rows(), " rows, but got ",
                                          submission.num_rows()));
  }
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("image_id cannot be sorted: ", order.status().message()));
  }
  const Column sorted_ids = TakeCells(*ids, *order);
  const Column sorted_answer_ids = TakeCells(*answer_ids, *answer_order);
  for (size_t row = 0; row < sorted_ids.cells.size(); ++row) {
    if (!CellsEqual(sorted_ids.cells[row], sorted_answer_ids.cells[row])) {
      return InvalidSubmission("Invalid image IDs in the submission!");
    }
  }
  const Column y_pred = PredictedLabels(TakeCells(*labels, *order));
  absl::StatusOr<double> score = AccuracyScore(y_true, y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("accuracy_score rejects `label`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"image_id"}},
    .answers_csv = {.string_columns = {"image_id"}},
});

}  // namespace mlebench
