// Upstream's detecting-insults-in-social-commentary/grade.py: ROC AUC of the
// `Insult` probabilities, rows aligned on the comment text itself (`Comment`;
// the data has no id column).

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/roc_auc_by_id.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return RocAucById(submission, answers, /*id_column=*/"Comment", /*target_column=*/"Insult");
}

}  // namespace

// Both files are read with pandas' default inference, as upstream reads
// them: the comments are text either way (Kaggle wraps each in literal
// quotes), and inferring both sides alike keeps upstream's id comparison.
MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
