#include "grading/metrics/roc_auc_by_id.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/outcome.h"

namespace mlebench {

absl::StatusOr<double> RocAucById(const TypedTable& submission, const TypedTable& answers,
                                  std::string_view id_column, std::string_view target_column) {
  ASSIGN_OR_RETURN(AurocInputs inputs,
                   PrepareForAurocMetric(submission, answers, id_column, target_column));
  absl::StatusOr<double> score = RocAucScore(inputs.y_true, inputs.y_score);
  if (!score.ok()) {
    return InvalidSubmission(absl::StrCat("roc_auc_score rejects `", std::string(target_column),
                                          "`: ", std::string(score.status().message())));
  }
  return score;
}

}  // namespace mlebench
