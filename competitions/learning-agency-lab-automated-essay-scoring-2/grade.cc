// Upstream's learning-agency-lab-automated-essay-scoring-2/grade.py:
// scikit-learn's quadratic weighted kappa between the submission's and the
// answers' `score`, after both are sorted by `essay_id` and the sorted ids
// are required to match row for row.

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/correlation/quadratic_weighted_kappa.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {
namespace {

constexpr char kId[] = "essay_id";
constexpr char kTarget[] = "score";

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  if (answers.Find(kTarget) == nullptr) return MalformedAnswers("no score column");
  if (answers.Find(kId) == nullptr) return MalformedAnswers("no essay_id column");
  if (answers.num_rows() == 0) return MalformedAnswers("no rows");

  if (submission.Find(kTarget) == nullptr) {
    return InvalidSubmission("Submission must contain the target column 'score'");
  }
  if (submission.Find(kId) == nullptr) {
    return InvalidSubmission("Submission must contain the id column 'essay_id'");
  }
  if (submission.num_rows() == 0) return InvalidSubmission("Submission DataFrame should not be empty");

  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*submission.Find(kId));
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by essay_id: ", submission_order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answers_order = SortValuesOrder(*answers.Find(kId));
  if (!answers_order.ok()) return MalformedAnswers(std::string(answers_order.status().message()));

  // numpy compares the sorted id arrays elementwise; arrays of other lengths
  // do not compare (an error in numpy 2, always "different" before), and an
  // answers table has distinct ids, so a one-row submission (which numpy
  // would broadcast) cannot match either.
  const TypedColumn& submission_ids = *submission.Find(kId);
  const TypedColumn& answer_ids = *answers.Find(kId);
  bool ids_match = submission_order->size() == answers_order->size();
  for (size_t i = 0; ids_match && i < answers_order->size(); ++i) {
    ids_match = ValuesEqualAt(submission_ids, (*submission_order)[i], answer_ids, (*answers_order)[i]);
  }
  if (!ids_match) return InvalidSubmission("Submission must contain the same ids as the answers");

  const Column y_pred = TakeCells(submission.Find(kTarget)->ToColumn(), *submission_order);
  const Column y_true = TakeCells(answers.Find(kTarget)->ToColumn(), *answers_order);
  if (y_true.dtype != Dtype::kInt64) return MalformedAnswers("score is not an integer column");
  absl::StatusOr<double> kappa = QuadraticWeightedKappa(y_pred, y_true);
  if (!kappa.ok()) {
    return InvalidSubmission(
        absl::StrCat("cohen_kappa_score rejects `score`: ", kappa.status().message()));
  }
  return kappa;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the essays' text.
    .answers_csv = {.only_columns = {kId, kTarget}},
});

}  // namespace mlebench
