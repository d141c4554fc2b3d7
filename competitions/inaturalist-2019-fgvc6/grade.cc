// Upstream's inaturalist-2019-fgvc6/grade.py: the top-1 classification
// error, 1 - accuracy_score, of the predicted category ids aligned on `id`.
//
// As upstream: both tables sorted by `id` (pandas sort_values) must agree row
// by row; y_true is int() of the answers' `predicted`; a submitted
// `predicted` that pandas reads as an integer (or bool) is taken as is, and
// a text one contributes int() of its first whitespace-separated token (so
// Kaggle's "12 45 3" top-k lists score their first guess; int() also reads
// non-ASCII decimal digits, "٧" as 7). Floats (also integers in a column with
// a missing value) make upstream call .split() on a float and raise: invalid,
// like empty text and tokens int() rejects.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/classification/accuracy.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_int.h"
#include "pycompat/python_str.h"
#include "base/table.h"

namespace mlebench {
namespace {

absl::Status BadAnswers(const std::string& reason) {
  return absl::FailedPreconditionError(absl::StrCat("malformed answers: ", reason));
}

// `int(y) if isinstance(y, int) else int(y.split()[0])`; nullopt where
// Python raises.
std::optional<int64_t> PredictedLabel(const Cell& cell) {
  if (std::holds_alternative<int64_t>(cell) || std::holds_alternative<bool>(cell)) {
    return PythonIntOfCell(cell);
  }
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr) return std::nullopt;  // float / NaN: no .split()
  std::optional<std::u32string> code_points = DecodeUtf8(*text);
  if (!code_points) return std::nullopt;
  const std::vector<std::u32string> tokens = PythonSplit(*code_points);
  if (tokens.empty()) return std::nullopt;  // IndexError
  // PythonIntOfCell reads any Unicode decimal digits, as int() does ("٣" is 3).
  return PythonIntOfCell(Cell(EncodeUtf8(tokens.front())));
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find("id");
  const Column* answer_labels = answers.Find("predicted");
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return BadAnswers("expected columns 'id' and 'predicted'");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission length ", submission.num_rows(),
                                          " != answers length ", answers.num_rows()));
  }
  const Column* ids = submission.Find("id");
  const Column* labels = submission.Find("predicted");
  if (ids == nullptr || labels == nullptr) {
    return InvalidSubmission("Submission must have 'id' and 'predicted' columns");
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return BadAnswers(std::string(answer_order.status().message()));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    // pandas raises TypeError sorting text against numbers.
    return InvalidSubmission(
        absl::StrCat("'id' cannot be sorted: ", std::string(order.status().message())));
  }
  for (size_t row = 0; row < order->size(); ++row) {
    if (!CellsEqual(ids->cells[(*order)[row]], answer_ids->cells[(*answer_order)[row]])) {
      return InvalidSubmission("Submission and answers have mismatched 'id' columns");
    }
  }
  std::vector<Cell> true_cells;
  for (size_t row : *answer_order) {
    std::optional<int64_t> value = PythonIntOfCell(answer_labels->cells[row]);
    if (!value) return BadAnswers("'predicted' holds a value int() rejects");
    true_cells.emplace_back(std::in_place_type<int64_t>, *value);
  }
  std::vector<Cell> predicted_cells;
  for (size_t row : *order) {
    std::optional<int64_t> value = PredictedLabel(labels->cells[row]);
    if (!value) {
      return InvalidSubmission(absl::StrCat(
          "'predicted' must hold integer category ids (or space-separated lists of them); "
          "row ",
          row, " holds '", PythonStr(labels->cells[row]), "'"));
    }
    predicted_cells.emplace_back(std::in_place_type<int64_t>, *value);
  }
  absl::StatusOr<double> accuracy =
      AccuracyScore(Column{"y_true", Dtype::kInt64, std::move(true_cells)},
                    Column{"y_pred", Dtype::kInt64, std::move(predicted_cells)});
  if (!accuracy.ok()) {
    return absl::InternalError(
        absl::StrCat("accuracy_score failed: ", std::string(accuracy.status().message())));
  }
  return 1 - *accuracy;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
