// Upstream's jigsaw-toxic-comment-classification-challenge/grade.py: the mean
// over the six labels of each label's ROC AUC, on the test rows that Kaggle
// scored (rows whose labels are all -1 in the answers are left out).
//
// Upstream's steps, and what they imply:
//  1. the submission needs an `id` column and the six label columns (extra
//     columns are not rejected here);
//  2. the lengths must match (an AssertionError, so an invalid submission);
//  3. both tables are indexed by id and sorted; the answers' keep mask (label
//     sum >= 0) is applied to the submission by id: a submission id that is
//     not an answer id makes pandas raise ("Unalignable boolean Series"),
//     while repeated ids that are all answer ids pass through;
//  4. roc_auc_score(average="macro") gets the kept rows of ALL remaining
//     columns of each table, by position: the submission's columns are paired
//     with the answers' in file order, not by name, and an extra submission
//     column fails sklearn's column loop (IndexError). Values convert as
//     numpy converts the frame (text through Python's float()), and only
//     the kept rows are converted and checked, so NaN or text on a row that
//     Kaggle did not score is accepted.
// Among rows with equal ids, pandas' sort order is unspecified (numpy's
// quicksort); we keep file order.

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/matrix_view.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
// Upstream's classes.py, in its order.
constexpr std::array<std::string_view, 6> kClasses = {"toxic",  "severe_toxic", "obscene",
                                                      "threat", "insult",       "identity_hate"};

std::string CellRepr(const Cell& cell) {
  if (IsMissing(cell)) return "nan";
  if (const auto* s = std::get_if<std::string>(&cell)) return absl::StrCat("'", *s, "'");
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat(*i);
  return FormatPythonFloat(std::get<double>(cell));
}

// A hash key under which two index labels are the same exactly when pandas'
// object hashtable matches them (Python equality: 1 == 1.0 == True, a string
// never equals a number; NaN matches NaN).
std::string LabelKey(const Cell& cell) {
  if (IsMissing(cell)) return "nan";
  if (const auto* s = std::get_if<std::string>(&cell)) return absl::StrCat("s", *s);
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat("i", *i);
  const double v = *NumericValue(cell);
  if (v == std::trunc(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
    return absl::StrCat("i", static_cast<int64_t>(v));
  }
  return absl::StrCat("f", FormatPythonFloat(v));
}

// The columns other than the id, in file order: what `set_index("id")`
// leaves for `.to_numpy()`.
std::vector<const Column*> ValueColumns(const Table& table) {
  std::vector<const Column*> columns;
  for (const Column& c : table.columns()) {
    if (c.name != kIdColumn) columns.push_back(&c);
  }
  return columns;
}

// The answers' side: sorted by id, the keep flag of each id, and y_true.
struct ScoredAnswers {
  absl::flat_hash_map<std::string, bool> keep_by_id;
  std::vector<double> y_true;  // kept rows x label columns, row-major
  size_t rows = 0;
  size_t cols = 0;
};

absl::StatusOr<ScoredAnswers> PrepareAnswers(const Table& answers) {
  const Column* id = answers.Find(kIdColumn);
  if (id == nullptr) return MalformedAnswers("Answers is missing `id` column");
  std::vector<std::string> missing;
  for (std::string_view name : kClasses) {
    if (answers.Find(name) == nullptr) missing.push_back(absl::StrCat("'", std::string(name), "'"));
  }
  if (!missing.empty()) {
    return MalformedAnswers(absl::StrCat("Answers is missing the following columns: {",
                                         absl::StrJoin(missing, ", "), "}"));
  }
  // Upstream's answers (Kaggle's test_labels.csv) hold exactly the id and
  // the six labels. Other columns would change what sklearn pairs with the
  // submission's columns, so answers with them count as malformed here.
  const std::vector<const Column*> label_columns = ValueColumns(answers);
  if (label_columns.size() != kClasses.size()) {
    return MalformedAnswers(absl::StrCat("expected the id and the six label columns, got ",
                                         answers.num_columns(), " columns"));
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*id);
  if (!order.ok()) return MalformedAnswers(std::string(order.status().message()));
  ScoredAnswers scored;
  scored.cols = label_columns.size();
  for (size_t row : *order) {
    const Cell& label = id->cells[row];
    if (IsMissing(label)) return MalformedAnswers("an id is missing");
    // `answers[CLASSES].sum(axis=1) >= 0`, NaN skipped as pandas does.
    double sum = 0.0;
    for (const Column* column : label_columns) {
      std::optional<double> v = NumericValue(column->cells[row]);
      if (!v.has_value()) {
        return MalformedAnswers(
            absl::StrCat("column '", column->name, "' holds text ", CellRepr(column->cells[row])));
      }
      if (!std::isnan(*v)) sum += *v;
    }
    const bool keep = sum >= 0;
    if (!scored.keep_by_id.emplace(LabelKey(label), keep).second) {
      return MalformedAnswers(absl::StrCat("the id ", CellRepr(label), " is repeated"));
    }
    if (!keep) continue;
    ++scored.rows;
    for (const Column* column : label_columns) {
      scored.y_true.push_back(*NumericValue(column->cells[row]));
    }
  }
  if (absl::Status s = CheckMacroRocAucTrue({scored.y_true, scored.rows, scored.cols}); !s.ok()) {
    return MalformedAnswers(
        absl::StrCat("the scored labels are not a usable ROC AUC target: ", s.message()));
  }
  return scored;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  const Column* id = submission.Find(kIdColumn);
  if (id == nullptr) return InvalidSubmission("Submission is missing the column: id");
  std::vector<std::string> missing;
  for (std::string_view name : kClasses) {
    if (submission.Find(name) == nullptr)
      missing.push_back(absl::StrCat("'", std::string(name), "'"));
  }
  if (!missing.empty()) {
    return InvalidSubmission(absl::StrCat("Submission is missing the following columns: {",
                                          absl::StrJoin(missing, ", "), "}"));
  }
  ASSIGN_OR_RETURN(ScoredAnswers scored, PrepareAnswers(answers));
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers have different lengths (",
                                          submission.num_rows(), " rows instead of ",
                                          answers.num_rows(), ")"));
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*id);
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("Submission ids cannot be sorted: ", order.status().message()));
  }
  // The kept rows of the sorted submission, by the answers' mask.
  std::vector<size_t> kept_rows;
  for (size_t row : *order) {
    auto it = scored.keep_by_id.find(LabelKey(id->cells[row]));
    if (it == scored.keep_by_id.end()) {
      return InvalidSubmission(
          absl::StrCat("Unalignable boolean Series provided as indexer: the submission's id ",
                       CellRepr(id->cells[row]), " is not an id of the test set"));
    }
    if (it->second) kept_rows.push_back(row);
  }

  const std::vector<const Column*> score_columns = ValueColumns(submission);
  std::vector<double> y_score;
  y_score.reserve(kept_rows.size() * score_columns.size());
  for (size_t row : kept_rows) {
    for (const Column* column : score_columns) {
      std::optional<double> v = ObjectToFloat64(column->cells[row]);
      if (!v.has_value()) {
        return InvalidSubmission(
            absl::StrCat("could not convert string to float: ", CellRepr(column->cells[row]),
                         " (column '", column->name, "')"));
      }
      y_score.push_back(*v);
    }
  }
  absl::StatusOr<double> score = MacroRocAucScore(
      {scored.y_true, scored.rows, scored.cols}, {y_score, kept_rows.size(), score_columns.size()});
  if (!score.ok()) {
    // The labels were checked above, so what roc_auc_score rejects is the
    // submission's doing (NaN or infinite scores, extra columns, repeated ids
    // that change the number of scored rows).
    return InvalidSubmission(
        absl::StrCat("roc_auc_score rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
