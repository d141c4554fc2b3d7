// Upstream's tabular-playground-series-may-2022/grade.py: ROC AUC of the
// `target` probabilities, aligned on `id`.

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/roc_auc_by_id.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return RocAucById(submission, answers, /*id_column=*/"id", /*target_column=*/"target");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
    // Only what Grade reads: the answers also hold the 31 feature columns.
    .answers_csv = {.only_columns = {"id", "target"}},
});

}  // namespace mlebench
