#include "competitions/families/fgvc/id_label_macro_f1.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/classification/f1_score.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_int.h"
#include "base/table.h"

namespace mlebench {
namespace {

absl::Status BadAnswers(std::string_view reason) { return MalformedAnswers(std::string(reason)); }

}  // namespace

absl::StatusOr<double> GradeIdLabelMacroF1(const Table& submission, const Table& answers,
                                           std::string_view id_column,
                                           std::string_view label_column) {
  const std::string id(id_column);
  const std::string label(label_column);
  const Column* answer_ids = answers.Find(id);
  const Column* answer_labels = answers.Find(label);
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return BadAnswers(absl::StrCat("expected columns '", id, "' and '", label, "'"));
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission length ", submission.num_rows(),
                                          " != answers length ", answers.num_rows()));
  }
  const Column* ids = submission.Find(id);
  const Column* labels = submission.Find(label);
  if (ids == nullptr || labels == nullptr) {
    return InvalidSubmission(
        absl::StrCat("Submission must have '", id, "' and '", label, "' columns"));
  }

  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return BadAnswers(std::string(answer_order.status().message()));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    // pandas raises TypeError sorting text against numbers.
    return InvalidSubmission(
        absl::StrCat("'", id, "' cannot be sorted: ", std::string(order.status().message())));
  }
  const Column sorted_ids = TakeCells(*ids, *order);
  const Column sorted_answer_ids = TakeCells(*answer_ids, *answer_order);
  for (size_t row = 0; row < sorted_ids.cells.size(); ++row) {
    if (!CellsEqual(sorted_ids.cells[row], sorted_answer_ids.cells[row])) {
      return InvalidSubmission(
          absl::StrCat("Submission and answers have mismatched '", id, "' columns"));
    }
  }

  std::vector<int64_t> y_true;
  y_true.reserve(answer_order->size());
  for (size_t row : *answer_order) {
    std::optional<int64_t> value = PythonIntOfCell(answer_labels->cells[row]);
    if (!value) return BadAnswers(absl::StrCat("'", label, "' holds a value int() rejects"));
    y_true.push_back(*value);
  }
  std::vector<int64_t> y_pred;
  y_pred.reserve(order->size());
  size_t above_int64 = 0;  // predictions int() makes an integer in [2**63, 2**64)
  for (size_t row : *order) {
    std::optional<int64_t> value = PythonIntOfCell(labels->cells[row]);
    if (!value && PythonIntOfCellAboveInt64(labels->cells[row])) {
      ++above_int64;
      continue;
    }
    if (!value) {
      return InvalidSubmission(absl::StrCat(
          "'", label, "' must hold integer class ids; int() rejects a value in row ", row));
    }
    y_pred.push_back(*value);
  }
  if (above_int64 > 0 && above_int64 < order->size()) {
    // Mixed with smaller ints, numpy makes floats, which sklearn calls continuous.
    return InvalidSubmission(
        absl::StrCat("'", label, "' mixes class ids beyond int64 with others"));
  }
  // All of them: numpy holds the list as uint64 and sklearn scores it, but no
  // prediction can equal an answer (all int64), so every label's F1 is 0.
  if (above_int64 > 0) return 0.0;
  FScoreOptions options;
  options.average = FScoreAverage::kMacro;
  absl::StatusOr<double> score = MulticlassFScore(y_true, y_pred, options);
  if (!score.ok()) {
    return absl::InternalError(
        absl::StrCat("f1_score failed: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace mlebench
