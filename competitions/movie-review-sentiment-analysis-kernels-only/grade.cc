// Upstream's movie-review-sentiment-analysis-kernels-only/grade.py: accuracy
// of the predicted `Sentiment` classes (0-4), aligned on `PhraseId`.

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"PhraseId",
                           /*target_column=*/"Sentiment");
}

}  // namespace

// Both files are read with pandas' defaults, as upstream does: PhraseIds are
// integers on both sides.
MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the phrases.
    .answers_csv = {.only_columns = {"PhraseId", "Sentiment"}},
});

}  // namespace mlebench
