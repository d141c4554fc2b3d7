// Upstream's histopathologic-cancer-detection/grade.py: ROC AUC of the
// `label` probabilities, aligned on `id`.

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/roc_auc_by_id.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return RocAucById(submission, answers, /*id_column=*/"id", /*target_column=*/"label");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
