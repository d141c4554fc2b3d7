// Upstream's iwildcam-2020-fgvc7/grade.py: accuracy of the
// predicted animal `Category` per test image, aligned on `Id`.

#include <string>

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"Id", /*target_column=*/"Category");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
