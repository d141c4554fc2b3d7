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
});

}  // namespace mlebench
