// Upstream's cassava-leaf-disease-classification/grade.py: accuracy of the
// predicted disease `label` (0-4) per image, aligned on `image_id`.

#include <string>

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"image_id",
                           /*target_column=*/"label");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
