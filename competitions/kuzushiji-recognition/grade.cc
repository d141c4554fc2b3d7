// Upstream's kuzushiji-recognition/grade.py: both tables sorted by image_id
// must list the same pages; each submission `labels` string ("label X Y ...",
// missing for no prediction) must split into triples whose X and Y parse as
// floats; the score is kuzushiji_f1 over the pages (grading/metrics/
// kuzushiji_f1.h). Higher is better.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/vision/kuzushiji_f1.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

// The `labels` cells in `order` as page strings; missing cells are nullopt.
// A present value that is not text (pandas read a number or a bool) has no
// .split in Python: nullopt in `*bad_row`'s place and `*bad_row` set.
std::vector<std::optional<std::string>> Pages(const Column& labels, const std::vector<size_t>& order,
                                              std::optional<size_t>* bad_row) {
  std::vector<std::optional<std::string>> pages;
  for (size_t row : order) {
    const Cell& cell = labels.cells[row];
    if (IsMissing(cell)) {
      pages.push_back(std::nullopt);
    } else if (const std::string* text = std::get_if<std::string>(&cell)) {
      pages.push_back(*text);
    } else {
      if (!bad_row->has_value()) *bad_row = row;
      pages.push_back(std::nullopt);
    }
  }
  return pages;
}

// grade.py's format check of one prediction string.
bool WellFormed(const std::string& pred) {
  std::vector<std::string> tokens;
  size_t start = 0;
  for (size_t space; (space = pred.find(' ', start)) != std::string::npos; start = space + 1) {
    tokens.push_back(pred.substr(start, space - start));
  }
  tokens.push_back(pred.substr(start));
  if (tokens.size() % 3 != 0) return false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i % 3 != 0 && !PythonFloatFromString(tokens[i]).has_value()) return false;
  }
  return true;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* answer_ids = answers.Find("image_id");
  const Column* answer_labels = answers.Find("labels");
  if (answer_ids == nullptr || answer_labels == nullptr) {
    return absl::InvalidArgumentError("answers need columns 'image_id' and 'labels'");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission has ", submission.num_rows(),
                                          " rows, but expected ", answers.num_rows(), " rows."));
  }
  const Column* ids = submission.Find("image_id");
  const Column* labels = submission.Find("labels");
  if (ids == nullptr || labels == nullptr) {
    return InvalidSubmission("Submission must have columns 'image_id' and 'labels'.");
  }

  ASSIGN_OR_RETURN(std::vector<size_t> answer_order, SortValuesOrder(*answer_ids));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*ids);
  if (!order.ok()) {
    return InvalidSubmission(absl::StrCat("cannot sort image_id: ", order.status().message()));
  }
  for (size_t i = 0; i < order->size(); ++i) {
    const Cell& id = ids->cells[(*order)[i]];
    const Cell& expected = answer_ids->cells[(answer_order)[i]];
    // Python's ==: missing values never compare equal.
    if (IsMissing(id) || IsMissing(expected) || !CellsEqual(id, expected)) {
      return InvalidSubmission("Submission image_id codes don't match solution.");
    }
  }

  std::optional<size_t> bad_row;
  const std::vector<std::optional<std::string>> preds = Pages(*labels, *order, &bad_row);
  for (size_t i = 0; i < preds.size(); ++i) {
    if (bad_row.has_value() && (*order)[i] == *bad_row) {
      return InvalidSubmission(absl::StrCat("labels value '", PythonStr(labels->cells[*bad_row]),
                                            "' is not a prediction string"));
    }
    if (preds[i].has_value() && !WellFormed(*preds[i])) {
      return InvalidSubmission(absl::StrCat("Malformed prediction string: ", *preds[i]));
    }
  }
  std::optional<size_t> bad_answer;
  const std::vector<std::optional<std::string>> truths =
      Pages(*answer_labels, answer_order, &bad_answer);
  if (bad_answer.has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("answers' labels row ", *bad_answer, " is not text"));
  }
  // Predictions are checked above with the same parser, so an error here is
  // a malformed answers string.
  absl::StatusOr<double> f1 = KuzushijiF1(preds, truths);
  if (!f1.ok()) return absl::InvalidArgumentError(absl::StrCat("answers: ", f1.status().message()));
  return f1;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"image_id"}},
    .answers_csv = {.string_columns = {"image_id"}},
});

}  // namespace mlebench
