// Upstream's movie-review-sentiment-analysis-kernels-only/grade.py: accuracy
// of the predicted `Sentiment` classes (0-4), aligned on `PhraseId`.

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
                   PrepareForAccuracyMetric(submission, answers, /*id_column=*/"PhraseId",
                                            /*target_column=*/"Sentiment"));
  // The answers' labels are checked above, so sklearn's objections (NaN or
  // fractional predictions, text against numbers) are the submission's.
  absl::StatusOr<double> score = AccuracyScore(inputs.y_true, inputs.y_pred);
  if (!score.ok()) {
    return InvalidSubmission(
        absl::StrCat("accuracy_score rejects `Sentiment`: ", score.status().message()));
  }
  return score;
}

}  // namespace

// Both files are read with pandas' defaults, as upstream does: PhraseIds are
// integers on both sides.
MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
