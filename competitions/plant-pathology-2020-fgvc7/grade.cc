// Upstream's plant-pathology-2020-fgvc7/grade.py: the mean over the four
// classes (healthy, multiple_diseases, rust, scab) of each class column's
// ROC AUC, aligned on `image_id`.
//
// Upstream's steps, and what they imply:
//  1. the answers must have exactly the id and the four class columns (an
//     assert: malformed answers here);
//  2. the submission must have as many rows as the answers, then exactly
//     those five columns (in any order; extra columns are rejected);
//  3. both are sorted by image_id and must list the same ids row by row (so
//     a repeated or unknown id is rejected);
//  4. roc_auc_score per class column, which converts the scores as
//     check_array does (numbers and bools as they are, text through Python's
//     float()) and rejects NaN and infinite ones. Scores need not lie in
//     [0, 1]: only their ranking matters.

#include <array>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "image_id";
constexpr std::array<std::string_view, 4> kClasses = {"healthy", "multiple_diseases", "rust",
                                                      "scab"};

bool HasExactlyExpectedColumns(const TypedTable& table) {
  const std::vector<std::string> names = table.ColumnNames();
  std::set<std::string> expected = {std::string(kIdColumn)};
  for (std::string_view name : kClasses) expected.insert(std::string(name));
  return std::set<std::string>(names.begin(), names.end()) == expected;
}

// The class columns of `table` in `order`, row-major (rows x 4), converted
// as numpy converts them; nullopt names the first cell that cannot be.
struct ClassMatrix {
  std::vector<double> values;
  std::optional<std::string> bad_cell;
};
ClassMatrix ClassValues(const TypedTable& table, const std::vector<size_t>& order) {
  ClassMatrix matrix;
  std::array<const TypedColumn*, kClasses.size()> columns;
  std::array<std::vector<double>, kClasses.size()> numbers;
  bool all_numbers = true;
  for (size_t c = 0; c < kClasses.size(); ++c) {
    columns[c] = table.Find(kClasses[c]);
    numbers[c].resize(columns[c]->size());
    all_numbers &= CopyNumericValues(*columns[c], numbers[c]) == numbers[c].size();
  }
  matrix.values.resize(order.size() * kClasses.size());
  if (all_numbers) {
    for (size_t i = 0; i < order.size(); ++i) {
      for (size_t c = 0; c < kClasses.size(); ++c) {
        matrix.values[i * kClasses.size() + c] = numbers[c][order[i]];
      }
    }
    return matrix;
  }
  // Text among the scores: each cell as Python's float() reads it, the first
  // that cannot be named (in sorted row order, then class order).
  for (size_t i = 0; i < order.size(); ++i) {
    for (size_t c = 0; c < kClasses.size(); ++c) {
      const Cell cell = columns[c]->CellAt(order[i]);
      std::optional<double> v = ObjectToFloat64(cell);
      if (!v.has_value()) {
        matrix.bad_cell = absl::StrCat("could not convert string to float: '",
                                       std::get<std::string>(cell), "' (column '",
                                       std::string(kClasses[c]), "')");
        return matrix;
      }
      matrix.values[i * kClasses.size() + c] = *v;
    }
  }
  return matrix;
}

// The score when the submission lists the answers' ids in their order and
// every check passes, from the rows as they lie: sorting both by id would
// permute both alike, and each class's AUC depends only on the (label,
// score) pairs. nullopt wherever anything fails, for Grade to find the
// failure in upstream's order.
std::optional<double> ScoreOfRowsInOrder(const TypedTable& submission, const TypedTable& answers) {
  if (submission.num_rows() != answers.num_rows() || !HasExactlyExpectedColumns(submission) ||
      !SameTextIdsInOrder(*submission.Find(kIdColumn), *answers.Find(kIdColumn))) {
    return std::nullopt;
  }
  std::vector<size_t> rows(answers.num_rows());
  std::iota(rows.begin(), rows.end(), 0);
  const ClassMatrix y_true = ClassValues(answers, rows);
  if (y_true.bad_cell.has_value()) return std::nullopt;
  const MatrixView true_view{y_true.values, answers.num_rows(), kClasses.size()};
  // Labels that CheckMacroRocAucTrue rejects make MacroRocAucScore fail too
  // (both matrices have the four columns), so they need no pass of their own.
  const ClassMatrix y_score = ClassValues(submission, rows);
  if (y_score.bad_cell.has_value()) return std::nullopt;
  absl::StatusOr<double> score =
      MacroRocAucScore(true_view, {y_score.values, submission.num_rows(), kClasses.size()});
  if (!score.ok()) return std::nullopt;
  return *score;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (!HasExactlyExpectedColumns(answers)) {
    return MalformedAnswers("expected columns image_id, healthy, multiple_diseases, rust, scab");
  }
  if (std::optional<double> score = ScoreOfRowsInOrder(submission, answers)) return *score;
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answers.Find(kIdColumn));
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  const ClassMatrix y_true = ClassValues(answers, *answer_order);
  if (y_true.bad_cell.has_value()) return MalformedAnswers(*y_true.bad_cell);
  const MatrixView true_view{y_true.values, answers.num_rows(), kClasses.size()};
  if (absl::Status s = CheckMacroRocAucTrue(true_view); !s.ok()) {
    return MalformedAnswers(
        absl::StrCat("the labels are not a usable ROC AUC target: ", s.message()));
  }

  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected submission to have ", answers.num_rows(),
                                          " rows but got ", submission.num_rows()));
  }
  if (!HasExactlyExpectedColumns(submission)) {
    return InvalidSubmission(
        "Expected submission to have columns image_id, healthy, multiple_diseases, rust, scab");
  }
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*submission.Find(kIdColumn));
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("image_id cannot be sorted: ", order.status().message()));
  }
  const TypedColumn& ids = *submission.Find(kIdColumn);
  const TypedColumn& answer_ids = *answers.Find(kIdColumn);
  for (size_t i = 0; i < order->size(); ++i) {
    if (!ValuesEqualAt(ids, (*order)[i], answer_ids, (*answer_order)[i])) {
      return InvalidSubmission(
          "Submission and answers DataFrames must have matching 'image_id' columns.");
    }
  }
  const ClassMatrix y_score = ClassValues(submission, *order);
  if (y_score.bad_cell.has_value()) return InvalidSubmission(*y_score.bad_cell);
  absl::StatusOr<double> score =
      MacroRocAucScore(true_view, {y_score.values, submission.num_rows(), kClasses.size()});
  if (!score.ok()) {
    // The labels were checked above, so what roc_auc_score rejects is the
    // submission's (NaN or infinite scores).
    return InvalidSubmission(
        absl::StrCat("roc_auc_score rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    .submission_csv = {.string_columns = {"image_id"}},
    .answers_csv = {.string_columns = {"image_id"}},
});

}  // namespace mlebench
