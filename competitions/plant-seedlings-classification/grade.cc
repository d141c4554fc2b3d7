// Upstream's plant-seedlings-classification/grade.py: scikit-learn's
// f1_score(average="micro") of the predicted `species`, after submission and
// answers are sorted by `file` and required to list the same files row by
// row.
//
// Upstream's steps, and what they imply:
//  1. the submission must hold `file` and `species` (extra columns are
//     ignored) and as many rows as the answers;
//  2. both are sorted by file and the sorted file arrays must be equal
//     elementwise (a repeated, unknown or missing file fails);
//  3. the labels go to sklearn as Python lists (`.tolist()`). numpy turns a
//     list of strings with some NaN or numbers into an array of their str()
//     forms, so a missing prediction becomes the label "nan" (simply wrong);
//     a column with no text at all (numbers, bools, or all empty) is
//     rejected: numbers and bools mix label types with the answers' species
//     names, and an all-NaN list is "continuous" with NaN.

#include <deque>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/f1_score.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr char kFile[] = "file";
constexpr char kSpecies[] = "species";

// Whether `column`'s value at `row` is a string (not a number, bool or
// missing value).
bool IsStringAt(const TypedColumn& column, size_t row) {
  switch (column.storage()) {
    case TypedColumn::Storage::kText:
      return !TypedColumn::IsMissingText(column.text()[row]);
    case TypedColumn::Storage::kCells:
      return std::holds_alternative<std::string>(column.cells()[row]);
    default:
      return false;
  }
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  const TypedColumn* answer_files = answers.Find(kFile);
  const TypedColumn* answer_species = answers.Find(kSpecies);
  if (answer_files == nullptr || answer_species == nullptr) {
    return MalformedAnswers("expected columns file and species");
  }
  if (answer_species->dtype() != Dtype::kObject) return MalformedAnswers("species are not names");
  for (size_t row = 0; row < answer_species->size(); ++row) {
    if (!IsStringAt(*answer_species, row)) return MalformedAnswers("species are not names");
  }

  const TypedColumn* files = submission.Find(kFile);
  if (files == nullptr) return InvalidSubmission("Submission must have 'file' column");
  const TypedColumn* species = submission.Find(kSpecies);
  if (species == nullptr) return InvalidSubmission("Submission must have 'species' column");
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission length ", submission.num_rows(),
                                          " != answers length ", answers.num_rows()));
  }
  // Submission rows paired with answer rows by file (sorted row i of each).
  // The same files in the same rows pair each row with itself, and the
  // micro F1 counts pairs whatever their order: no sort, no check.
  std::vector<size_t> order, answer_order;
  if (SameValuesNoneMissing(*files, *answer_files)) {
    order.resize(files->size());
    std::iota(order.begin(), order.end(), size_t{0});
    answer_order = order;
  } else {
    absl::StatusOr<std::vector<size_t>> sorted = SortValuesOrder(*files);
    if (!sorted.ok()) {
      return InvalidSubmission(
          absl::StrCat("sorting the submission by file: ", sorted.status().message()));
    }
    absl::StatusOr<std::vector<size_t>> answers_sorted = SortValuesOrder(*answer_files);
    if (!answers_sorted.ok()) {
      return MalformedAnswers(std::string(answers_sorted.status().message()));
    }
    order = *std::move(sorted);
    answer_order = *std::move(answers_sorted);
    for (size_t i = 0; i < order.size(); ++i) {
      if (!ValuesEqualAt(*files, order[i], *answer_files, answer_order[i])) {
        return InvalidSubmission("Submission and answers have mismatched 'file' columns");
      }
    }
  }

  bool any_text = false;
  for (size_t row = 0; row < species->size() && !any_text; ++row) {
    any_text = IsStringAt(*species, row);
  }
  if (!any_text) {
    return InvalidSubmission(
        "f1_score rejects `species`: the predictions hold no species names (only numbers, "
        "booleans or missing values)");
  }
  std::vector<std::string_view> y_true, y_pred;
  y_true.reserve(order.size());
  y_pred.reserve(order.size());
  // Text as it is (the answers' species are all text, checked above); other
  // predictions as Python's str() spells them, kept in `spelled`.
  std::deque<std::string> spelled;
  const auto text_at = [&spelled](const TypedColumn& column, size_t row) -> std::string_view {
    if (column.storage() == TypedColumn::Storage::kText &&
        !TypedColumn::IsMissingText(column.text()[row])) {
      return column.text()[row];
    }
    return spelled.emplace_back(PythonStr(column.CellAt(row)));
  };
  for (size_t i = 0; i < order.size(); ++i) {
    y_true.push_back(text_at(*answer_species, answer_order[i]));
    y_pred.push_back(text_at(*species, order[i]));
  }
  FScoreOptions options;
  options.average = FScoreAverage::kMicro;
  absl::StatusOr<double> f1 = MulticlassFScore(y_true, y_pred, options);
  if (!f1.ok()) {
    return InvalidSubmission(absl::StrCat("f1_score rejects `species`: ", f1.status().message()));
  }
  return f1;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
