// Upstream's tensorflow-speech-recognition-challenge/grade.py: accuracy of
// the predicted `label` of each test clip, aligned on `fname`.

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"fname", /*target_column=*/"label");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
