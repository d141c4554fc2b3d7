#include "grading/metrics/classification/f1_score_label_sets.h"

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/metrics/classification/f1_score.h"
#include "grading/outcome.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

absl::Status BadAnswers(std::string_view reason) { return MalformedAnswers(std::string(reason)); }

// The label sets of `table` in row order `order`.
absl::StatusOr<std::vector<std::vector<std::string>>> OrderedLabelSets(
    const Table& table, std::string_view labels, const std::vector<size_t>& order) {
  ASSIGN_OR_RETURN(std::vector<std::vector<std::string>> rows,
                   SplitLabelColumn(*table.Find(labels)));
  std::vector<std::vector<std::string>> ordered;
  ordered.reserve(order.size());
  for (size_t row : order) ordered.push_back(std::move((rows)[row]));
  return ordered;
}

}  // namespace

absl::StatusOr<std::vector<std::vector<std::string>>> SplitLabelColumn(const Column& column) {
  std::vector<std::vector<std::string>> rows(column.cells.size());
  for (size_t i = 0; i < column.cells.size(); ++i) {
    const Cell& cell = column.cells[i];
    if (IsMissing(cell)) continue;
    const std::string* text = std::get_if<std::string>(&cell);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "column '", column.name, "' row ", i, " holds ", PythonStr(cell),
          ", not text: pandas' .str.split() cannot make labels of it"));
    }
    const std::optional<std::u32string> decoded = DecodeUtf8(*text);
    if (!decoded.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("column '", column.name, "' row ", i, " is not valid UTF-8"));
    }
    for (const std::u32string& label : PythonSplit(*decoded)) {
      rows[i].push_back(EncodeUtf8(label));
    }
  }
  return rows;
}

absl::StatusOr<double> MultilabelMicroF1ById(const Table& submission, const Table& answers,
                                             const MultilabelF1Columns& columns) {
  const Column* answer_ids = answers.Find(columns.id);
  const Column* ids = submission.Find(columns.id);
  if (answer_ids == nullptr || answers.Find(columns.labels) == nullptr) {
    return BadAnswers(absl::StrCat("expected columns '", std::string(columns.id), "' and '",
                                   std::string(columns.labels), "'"));
  }
  if (ids == nullptr || submission.Find(columns.labels) == nullptr ||
      submission.num_rows() != answers.num_rows()) {
    return absl::InternalError("the grader must check the submission's columns and rows first");
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answer_ids);
  if (!answer_order.ok()) return BadAnswers(std::string(answer_order.status().message()));
  absl::StatusOr<std::vector<std::vector<std::string>>> y_true =
      OrderedLabelSets(answers, columns.labels, *answer_order);
  if (!y_true.ok()) return BadAnswers(std::string(y_true.status().message()));
  std::vector<std::string> classes;
  for (size_t i = 0; i < y_true->size(); ++i) {
    const std::vector<std::string>& labels = (*y_true)[i];
    if (labels.empty() && columns.classes == AnswerClasses::kExplodeAll) {
      return BadAnswers(absl::StrCat(
          "an answer row has no labels, so upstream's classes include NaN, which sorted() "
          "cannot order among strings (id ",
          PythonStr(answer_ids->cells[(*answer_order)[i]]), ")"));
    }
    classes.insert(classes.end(), labels.begin(), labels.end());
  }
  std::sort(classes.begin(), classes.end());  // bytes: code point order, as Python's sorted
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  if (classes.size() < 2) {
    return BadAnswers(absl::StrCat("the answers hold ", classes.size(),
                                   " distinct labels; sklearn's f1_score needs at least two "
                                   "binarized columns to see a multilabel target"));
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    return InvalidSubmission(absl::StrCat("'", std::string(columns.id),
                                          "' cannot be sorted: ", order.status().message()));
  }
  for (size_t i = 0; i < order->size(); ++i) {
    if (!CellsEqual(ids->cells[(*order)[i]], answer_ids->cells[(*answer_order)[i]])) {
      return InvalidSubmission(columns.id_mismatch_reason);
    }
  }
  absl::StatusOr<std::vector<std::vector<std::string>>> y_pred =
      OrderedLabelSets(submission, columns.labels, *order);
  if (!y_pred.ok()) return InvalidSubmission(std::string(y_pred.status().message()));
  FScoreOptions options;
  options.average = FScoreAverage::kMicro;
  absl::StatusOr<double> score = MultilabelFScore(*y_true, *y_pred, classes, options);
  if (!score.ok()) return absl::InternalError(score.status().message());
  return score;
}

}  // namespace mlebench
