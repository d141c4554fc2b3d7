// Upstream's denoising-dirty-documents/grade.py: the RMSE between the
// submitted and the true cleaned intensity (0..1) of every pixel of the test
// images, rows paired after sorting both files by `id`
// ("<image>_<row>_<col>"), which must then agree row by row.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/grader.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/pandas_ops.h"
#include "grading/metrics/regression/rmse.h"
#include "base/table.h"

namespace mlebench {
namespace {

constexpr char kId[] = "id";
constexpr char kValue[] = "value";

// `column.astype(float)` succeeds: every cell converts as Python's float().
bool CastsToFloat(const Column& column) {
  if (column.dtype != Dtype::kObject) return true;
  for (const Cell& cell : column.cells) {
    if (!ObjectToFloat64(cell).has_value()) return false;
  }
  return true;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (answers.Find(kId) == nullptr) return MalformedAnswers("no 'id' column");
  if (answers.Find(kValue) == nullptr) return MalformedAnswers("no 'value' column");
  if (!CastsToFloat(*answers.Find(kValue))) return MalformedAnswers("non-numeric 'value'");
  if (submission.Find(kId) == nullptr) {
    return InvalidSubmission("Submission must have an 'id' column.");
  }
  if (submission.Find(kValue) == nullptr) {
    return InvalidSubmission("Submission must have a 'value' column.");
  }
  if (!CastsToFloat(*submission.Find(kValue))) {
    return InvalidSubmission("Submission must have float values in the 'value' column.");
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Expected the submission to have ", answers.num_rows(),
                                          " rows, but got ", submission.num_rows(), "."));
  }
  absl::StatusOr<std::vector<size_t>> submission_order = SortValuesOrder(*submission.Find(kId));
  if (!submission_order.ok()) {
    return InvalidSubmission(
        absl::StrCat("sorting the submission by id: ", submission_order.status().message()));
  }
  absl::StatusOr<std::vector<size_t>> answer_order = SortValuesOrder(*answers.Find(kId));
  if (!answer_order.ok()) return MalformedAnswers(std::string(answer_order.status().message()));
  const Column submission_ids = TakeCells(*submission.Find(kId), *submission_order);
  const Column answer_ids = TakeCells(*answers.Find(kId), *answer_order);
  for (size_t row = 0; row < answer_ids.cells.size(); ++row) {
    if (!CellsEqual(submission_ids.cells[row], answer_ids.cells[row])) {
      return InvalidSubmission(
          "Expected the submission to have the same 'id' values as the answers, but they differ.");
    }
  }
  // Upstream passes the submission as y_true and the answers as y_pred; RMSE
  // is symmetric, but the order decides which input sklearn complains about.
  const Column y_true = TakeCells(*submission.Find(kValue), *submission_order);
  const Column y_pred = TakeCells(*answers.Find(kValue), *answer_order);
  if (absl::StatusOr<double> self = RootMeanSquaredError(y_pred, y_pred); !self.ok()) {
    return MalformedAnswers(std::string(self.status().message()));
  }
  absl::StatusOr<double> score = RootMeanSquaredError(y_true, y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("root_mean_squared_error rejects 'value': ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"id"}},
    .answers_csv = {.string_columns = {"id"}},
});

}  // namespace mlebench
