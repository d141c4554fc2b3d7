// Upstream's new-york-city-taxi-fare-prediction/grade.py: the RMSE of
// `fare_amount`, after sorting the submission and the answers by `key`.
// Upstream never compares the keys: rows are paired by their position after
// the sort, so any submission with the right number of rows is scored.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/regression/rmse.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr char kKey[] = "key";
constexpr char kTarget[] = "fare_amount";

// `table.sort_values("key")["fare_amount"]`; a key column that Python cannot
// order (text mixed with numbers) is a TypeError.
absl::StatusOr<Column> TargetSortedByKey(const TypedTable& table) {
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*table.Find(kKey)));
  return TakeCells(table.Find(kTarget)->ToColumn(), order);
}

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (answers.Find(kTarget) == nullptr) return MalformedAnswers("no fare_amount column");
  if (answers.Find(kKey) == nullptr) return MalformedAnswers("no key column");
  if (submission.Find(kTarget) == nullptr) {
    return InvalidSubmission("Submission should have a fare_amount column");
  }
  if (submission.Find(kKey) == nullptr) {
    return InvalidSubmission("Submission should have a key column");
  }

  const TypedColumn& predicted_fares = *submission.Find(kTarget);
  const TypedColumn& true_fares = *answers.Find(kTarget);
  if (predicted_fares.storage() == TypedColumn::Storage::kFloat64 &&
      true_fares.storage() == TypedColumn::Storage::kFloat64) {
    // Two float64 columns: the same metric on their values, without cells
    // (RootMeanSquaredError's Column overload reads float64 columns as
    // they are); the same keys in the same rows sort once.
    absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*submission.Find(kKey));
    if (!order.ok()) {
      return InvalidSubmission(
          absl::StrCat("sorting the submission by key: ", order.status().message()));
    }
    absl::StatusOr<std::vector<size_t>> answer_order =
        SameValuesNoneMissing(*submission.Find(kKey), *answers.Find(kKey))
            ? *order
            : SortValuesOrder(*answers.Find(kKey));
    if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
    std::vector<double> y_pred(order->size()), y_true(answer_order->size());
    for (size_t i = 0; i < y_pred.size(); ++i) y_pred[i] = predicted_fares.doubles()[(*order)[i]];
    for (size_t i = 0; i < y_true.size(); ++i) y_true[i] = true_fares.doubles()[(*answer_order)[i]];
    if (absl::StatusOr<double> self = RootMeanSquaredError(y_true, y_true); !self.ok()) {
      return MalformedAnswers(std::string(self.status().message()));
    }
    absl::StatusOr<double> score = RootMeanSquaredError(y_true, y_pred);
    if (!score.ok()) {
      return InvalidSubmission(absl::StrCat("root_mean_squared_error rejects `fare_amount`: ",
                                            score.status().message()));
    }
    return score;
  }

  absl::StatusOr<Column> y_pred = TargetSortedByKey(submission);
  if (!y_pred.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by key: ", y_pred.status().message()));
  }
  absl::StatusOr<Column> y_true = TargetSortedByKey(answers);
  if (!y_true.ok()) return MalformedAnswers(std::string(y_true.status().message()));
  // Answers that could not be scored even against themselves are ours to fix,
  // not the submission's fault.
  if (absl::StatusOr<double> self = RootMeanSquaredError(*y_true, *y_true); !self.ok()) {
    return MalformedAnswers(std::string(self.status().message()));
  }
  absl::StatusOr<double> score = RootMeanSquaredError(*y_true, *y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("root_mean_squared_error rejects `fare_amount`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the rides' times, places
    // and passenger counts.
    .answers_csv = {.only_columns = {kKey, kTarget}},
});

}  // namespace mlebench
