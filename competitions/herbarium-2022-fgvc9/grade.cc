// Upstream's herbarium-2022-fgvc9/grade.py (herbarium-2020-fgvc7's, less two
// asserts on the answers): macro F1 of the predicted category ids
// (`Predicted`) aligned on the test image `Id`. The ids stay numbers, as
// pandas reads them upstream (so "1.0" matches id 1).

#include "competitions/families/fgvc/id_label_macro_f1.h"
#include "grading/grader.h"
#include "base/table.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  return GradeIdLabelMacroF1(submission, answers, "Id", "Predicted");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
