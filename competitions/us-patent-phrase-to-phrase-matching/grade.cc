// Upstream's us-patent-phrase-to-phrase-matching/grade.py: scipy's Pearson
// correlation between the answers' and the submission's `score`, after both
// are sorted by `id` and the sorted ids are required to match row for row.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/correlation/pearson_correlation.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr char kId[] = "id";
constexpr char kScore[] = "score";

bool IsTypedNumber(const TypedColumn& column) {
  return column.storage() == TypedColumn::Storage::kFloat64 ||
         column.storage() == TypedColumn::Storage::kInt64;
}

// `column` (IsTypedNumber) in `order` as float64, as scipy promotes int64.
std::vector<double> SortedAsDoubles(const TypedColumn& column, const std::vector<size_t>& order) {
  std::vector<double> out(order.size());
  if (column.storage() == TypedColumn::Storage::kFloat64) {
    for (size_t i = 0; i < order.size(); ++i) out[i] = column.doubles()[order[i]];
  } else {
    for (size_t i = 0; i < order.size(); ++i) out[i] = static_cast<double>(column.ints()[order[i]]);
  }
  return out;
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (answers.Find(kId) == nullptr) return MalformedAnswers("no id column");
  if (answers.Find(kScore) == nullptr) return MalformedAnswers("no score column");
  if (answers.num_rows() < 2) return MalformedAnswers("fewer than two rows");

  // Upstream's order: the row count first, then the columns.
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission and answers must have the same number of rows (",
                                          submission.num_rows(), " vs ", answers.num_rows(), ")"));
  }
  if (submission.Find(kId) == nullptr || submission.Find(kScore) == nullptr) {
    return InvalidSubmission("Submission must have columns ['id', 'score']");
  }

  const TypedColumn& submission_ids = *submission.Find(kId);
  const TypedColumn& answer_ids = *answers.Find(kId);
  // The same ids in the same rows sort alike and match: one sort, no check.
  const bool same_ids = SameValuesNoneMissing(submission_ids, answer_ids);
  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(submission_ids);
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by id: ", submission_order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answers_order =
      same_ids ? *submission_order : SortValuesOrder(answer_ids);
  if (!answers_order.ok()) return MalformedAnswers(std::string(answers_order.status().message()));

  for (size_t i = 0; i < answers_order->size() && !same_ids; ++i) {
    if (!ValuesEqualAt(submission_ids, (*submission_order)[i], answer_ids, (*answers_order)[i])) {
      return InvalidSubmission("Ids mismatch between submission and answers");
    }
  }

  const TypedColumn& true_scores = *answers.Find(kScore);
  const TypedColumn& predicted_scores = *submission.Find(kScore);
  if (IsTypedNumber(true_scores) && IsTypedNumber(predicted_scores)) {
    // float64 or int64 storage: the float64 values pearsonr gets, without cells.
    const std::vector<double> x = SortedAsDoubles(true_scores, *answers_order);
    const std::vector<double> y = SortedAsDoubles(predicted_scores, *submission_order);
    absl::StatusOr<double> r = PearsonCorrelation(x, y);
    if (!r.ok()) {
      return InvalidSubmission(absl::StrCat("pearsonr rejects `score`: ", r.status().message()));
    }
    return r;
  }
  const Column y_true = TakeCells(true_scores.ToColumn(), *answers_order);
  const Column y_pred = TakeCells(predicted_scores.ToColumn(), *submission_order);
  if (y_true.dtype == Dtype::kObject) return MalformedAnswers("score is not numeric");
  absl::StatusOr<double> r = PearsonCorrelation(y_true, y_pred);
  if (!r.ok()) {
    return InvalidSubmission(absl::StrCat("pearsonr rejects `score`: ", r.status().message()));
  }
  // NaN (a constant or non-finite prediction) is upstream's score too.
  return r;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the phrases and their context.
    .answers_csv = {.only_columns = {kId, kScore}},
});

}  // namespace mlebench
