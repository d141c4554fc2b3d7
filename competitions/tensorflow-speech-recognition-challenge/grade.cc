// Upstream's tensorflow-speech-recognition-challenge/grade.py: accuracy of
// the predicted `label` of each test clip, aligned on `fname`.

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/metrics/metric_inputs.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  ASSIGN_OR_RETURN(AccuracyInputs inputs,
                   PrepareForAccuracyMetric(submission, answers, /*id_column=*/"fname",
                                            /*target_column=*/"label"));
  // The answers' labels are checked above, so sklearn's objections are the
  // submission's.
  absl::StatusOr<double> score = AccuracyScore(inputs.y_true, inputs.y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("accuracy_score rejects `label`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
