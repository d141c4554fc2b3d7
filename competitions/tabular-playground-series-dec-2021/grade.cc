// Upstream's tabular-playground-series-dec-2021/grade.py: accuracy of the
// predicted `Cover_Type` classes, aligned on `Id`.

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"Id", /*target_column=*/"Cover_Type");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold every feature column.
    .answers_csv = {.only_columns = {"Id", "Cover_Type"}},
});

}  // namespace mlebench
