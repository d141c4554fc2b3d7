// Upstream's cdiscount-image-classification-challenge/grade.py: accuracy of
// the predicted `category_id` of each product, aligned on `_id`.

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "competitions/common/accuracy_grade.h"
#include "grading/grader.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return GradeAccuracyById(submission, answers, /*id_column=*/"_id",
                           /*target_column=*/"category_id");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
