// Upstream's rsna-miccai-brain-tumor-radiogenomic-classification/grade.py:
// ROC AUC of the `MGMT_value` probabilities, aligned on `BraTS21ID`.
// Both tables are read with pandas' defaults, so the zero-padded case ids
// ("00012") compare as the integers they parse to.

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/metrics/roc_auc_by_id.h"

namespace mlebench {
namespace {

absl::StatusOr<double> Grade(const TypedTable& submission, const TypedTable& answers) {
  return RocAucById(submission, answers, /*id_column=*/"BraTS21ID", /*target_column=*/"MGMT_value");
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade_typed = &Grade,
});

}  // namespace mlebench
