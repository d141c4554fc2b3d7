// Upstream's iwildcam-2019-fgvc6/grade.py: macro F1 of the predicted animal
// category ids (`Category`) aligned on the image `Id`; the same logic as
// herbarium-2020-fgvc7's grade.py with other column names.

#include "competitions/families/fgvc/id_label_macro_f1.h"
#include "grading/grader.h"
#include "base/table.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  return GradeIdLabelMacroF1(submission, answers, "Id", "Category");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
