// Upstream's rsna-breast-cancer-detection/grade.py: the probabilistic F1
// score (pfbeta with beta = 1) of the `cancer` probabilities, rows aligned by
// sorting both tables on `prediction_id` ("<patient_id>_<laterality>").

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/probabilistic_f1.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

constexpr char kIdColumn[] = "prediction_id";
constexpr char kTargetColumn[] = "cancer";

// `table.sort_values(by=prediction_id)[column]`.
absl::StatusOr<std::vector<Column>> SortedById(const Table& table) {
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*table.Find(kIdColumn)));
  return std::vector<Column>{TakeCells(*table.Find(kIdColumn), order),
                             TakeCells(*table.Find(kTargetColumn), order)};
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (const char* column : {kIdColumn, kTargetColumn}) {
    if (answers.Find(column) == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat("answers have no `", column, "` column"));
    }
  }
  for (const char* column : {kIdColumn, kTargetColumn}) {
    if (submission.Find(column) == nullptr) {
      return InvalidSubmission(absl::StrCat(column, " not in submission"));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("submission and answers have different lengths: ",
                                          submission.num_rows(), " vs ", answers.num_rows()));
  }
  absl::StatusOr<std::vector<Column>> sorted_submission = SortedById(submission);
  if (!sorted_submission.ok()) {
    return InvalidSubmission(absl::StrCat("cannot sort the submission by ", kIdColumn, ": ",
                                          sorted_submission.status().message()));
  }
  ASSIGN_OR_RETURN(std::vector<Column> sorted_answers, SortedById(answers));
  const Column& submitted_ids = (*sorted_submission)[0];
  const Column& answer_ids = (sorted_answers)[0];
  for (size_t row = 0; row < answer_ids.cells.size(); ++row) {
    if (!CellsEqual(submitted_ids.cells[row], answer_ids.cells[row])) {
      return InvalidSubmission(absl::StrCat(kIdColumn, " not aligned: the submission's ids differ "
                                            "from the answers' (missing, extra or repeated ids)"));
    }
  }
  const Column& labels = (sorted_answers)[1];
  bool any_positive = false;
  for (const Cell& label : labels.cells) {
    any_positive = any_positive || (!IsMissing(label) && NumericValue(label).value_or(0) != 0);
  }
  // Upstream divides by the number of positive labels (a ZeroDivisionError
  // whatever was submitted): answers without one cannot grade anything.
  if (!any_positive) {
    return absl::FailedPreconditionError("answers have no positive `cancer` label");
  }
  absl::StatusOr<double> score = ProbabilisticFBeta(labels, (*sorted_submission)[1], /*beta=*/1.0);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("cannot score `", kTargetColumn,
                                          "`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
