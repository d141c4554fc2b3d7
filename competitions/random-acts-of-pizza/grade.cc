// Upstream's random-acts-of-pizza/grade.py: ROC AUC of the
// `requester_received_pizza` probabilities, aligned on `request_id`.

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
                   PrepareForAurocMetric(submission, answers, /*id_column=*/"request_id",
                                         /*target_column=*/"requester_received_pizza"));
  // The answers' labels are checked above (two classes, finite), so what
  // roc_auc_score still rejects, NaN scores, is the submission's.
  absl::StatusOr<double> score = RocAucScore(inputs.y_true, inputs.y_score);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("roc_auc_score rejects `requester_received_pizza`: ",
                                          score.status().message()));
  }
  return score;
}

}  // namespace

// Both files are read with pandas' default inference, as upstream reads
// them (Reddit's ids, "t3_w5491", are text either way).
MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
