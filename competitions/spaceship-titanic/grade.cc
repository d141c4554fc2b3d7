// Upstream's spaceship-titanic/grade.py: accuracy of the predicted
// `Transported` labels, aligned on `PassengerId`.

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"PassengerId",
                           /*target_column=*/"Transported");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold every passenger feature.
    .answers_csv = {.only_columns = {"PassengerId", "Transported"}},
});

}  // namespace mlebench
