// Upstream's tabular-playground-series-dec-2021/grade.py: accuracy of the
// predicted `Cover_Type` classes, aligned on `Id`.

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
                   PrepareForAccuracyMetric(submission, answers, /*id_column=*/"Id",
                                            /*target_column=*/"Cover_Type"));
  // The answers' classes are checked above, so what accuracy_score still
  // rejects (NaN, fractional classes) is the submission's.
  absl::StatusOr<double> score = AccuracyScore(inputs.y_true, inputs.y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("accuracy_score rejects `Cover_Type`: ", score.status().message()));
  }
  return score;
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
