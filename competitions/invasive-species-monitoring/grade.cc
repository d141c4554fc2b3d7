// Upstream's invasive-species-monitoring/grade.py: ROC AUC of the `invasive`
// probabilities, aligned on the image number `name`.

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/metric_inputs.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  ASSIGN_OR_RETURN(AurocInputs inputs,
                   PrepareForAurocMetric(submission, answers, /*id_column=*/"name",
                                         /*target_column=*/"invasive"));
  // The answers' labels are checked above, so what roc_auc_score still
  // rejects (NaN scores) is the submission's fault.
  absl::StatusOr<double> score = RocAucScore(inputs.y_true, inputs.y_score);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("roc_auc_score rejects `invasive`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
