// Upstream's playground-series-s3e18/grade.py: the mean of the ROC AUCs of
// the EC1 and EC2 probabilities (sklearn's roc_auc_score, average="macro"),
// with both tables sorted by id and their ids required to match row by row.
// Scores need not lie in [0, 1] (upstream does not check), but must convert
// to finite floats; columns other than id, EC1 and EC2 are ignored. Among
// rows with equal ids, pandas' sort order is unspecified (numpy's
// quicksort); we keep file order.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/auc_roc.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::array<std::string_view, 2> kTargets = {"EC1", "EC2"};

std::string CellRepr(const Cell& cell) {
  if (IsMissing(cell)) return "nan";
  if (const auto* s = std::get_if<std::string>(&cell)) return absl::StrCat("'", *s, "'");
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat(*i);
  return FormatPythonFloat(std::get<double>(cell));
}

// `answers.sort_values("id")[["EC1", "EC2"]].to_numpy()`, checked as labels
// that roc_auc_score accepts, with the sort order.
struct SortedAnswers {
  std::vector<size_t> order;
  std::vector<double> y_true;  // rows x 2, row-major
};

absl::StatusOr<SortedAnswers> PrepareAnswers(const TypedTable& answers) {
  const TypedColumn* id = answers.Find(kIdColumn);
  if (id == nullptr) return MalformedAnswers("no 'id' column");
  std::array<const TypedColumn*, 2> targets{};
  for (size_t t = 0; t < kTargets.size(); ++t) {
    targets[t] = answers.Find(kTargets[t]);
    if (targets[t] == nullptr) {
      return MalformedAnswers("Answers DataFrame must contain 'EC1' and 'EC2' columns.");
    }
  }
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*id);
  if (!order.ok()) return MalformedAnswers(std::string(order.status().message()));
  SortedAnswers sorted{*order, {}};
  sorted.y_true.reserve(2 * order->size());
  for (size_t row : *order) {
    for (const TypedColumn* target : targets) {
      std::optional<double> v = NumericValueAt(*target, row);
      if (!v.has_value()) {
        return MalformedAnswers(
            absl::StrCat("'", target->name(), "' holds text ", CellRepr(target->CellAt(row))));
      }
      sorted.y_true.push_back(*v);
    }
  }
  if (absl::Status s = CheckMacroRocAucTrue({sorted.y_true, order->size(), kTargets.size()});
      !s.ok()) {
    return MalformedAnswers(absl::StrCat("EC1/EC2 are not a usable ROC AUC target: ", s.message()));
  }
  return sorted;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  const TypedColumn* id = submission.Find(kIdColumn);
  if (id == nullptr) {
    return InvalidSubmission("Both submission and answers DataFrames must contain an 'id' column.");
  }
  std::array<const TypedColumn*, 2> targets{};
  for (size_t t = 0; t < kTargets.size(); ++t) {
    targets[t] = submission.Find(kTargets[t]);
    if (targets[t] == nullptr) {
      return InvalidSubmission("Submission DataFrame must contain 'EC1' and 'EC2' columns.");
    }
  }
  ASSIGN_OR_RETURN(SortedAnswers sorted_answers, PrepareAnswers(answers));
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission must be the same length as the answers (",
                                          submission.num_rows(), " rows instead of ",
                                          answers.num_rows(), ")."));
  }

  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*id);
  if (!order.ok()) {
    return InvalidSubmission(
        absl::StrCat("Submission ids cannot be sorted: ", order.status().message()));
  }
  const TypedColumn& answer_ids = *answers.Find(kIdColumn);
  for (size_t i = 0; i < order->size(); ++i) {
    if (!ValuesEqualAt(*id, (*order)[i], answer_ids, sorted_answers.order[i])) {
      return InvalidSubmission(absl::StrCat(
          "Submission and answers have mismatched 'id' columns (after sorting, row ", i, " has id ",
          CellRepr(id->CellAt((*order)[i])), " where the answers have ",
          CellRepr(answer_ids.CellAt(sorted_answers.order[i])), ")"));
    }
  }

  std::vector<double> y_score;
  y_score.reserve(2 * order->size());
  for (size_t row : *order) {
    for (const TypedColumn* target : targets) {
      std::optional<double> v = NumericValueAt(*target, row);
      if (!v.has_value()) v = ObjectToFloat64(target->CellAt(row));  // text
      if (!v.has_value()) {
        return InvalidSubmission(
            absl::StrCat("could not convert string to float: ", CellRepr(target->CellAt(row)),
                         " (column '", target->name(), "')"));
      }
      y_score.push_back(*v);
    }
  }
  absl::StatusOr<double> score =
      MacroRocAucScore({sorted_answers.y_true, order->size(), kTargets.size()},
                       {y_score, order->size(), kTargets.size()});
  if (!score.ok()) {
    // The labels were checked above: what roc_auc_score rejects (NaN or
    // infinite scores) is the submission's.
    return InvalidSubmission(
        absl::StrCat("roc_auc_score rejects the submission: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold every descriptor and the other targets.
    .answers_csv = {.only_columns = {"id", "EC1", "EC2"}},
});

}  // namespace mlebench
