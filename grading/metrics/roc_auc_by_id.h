// The grade.py of a dozen binary competitions: roc_auc_score of the
// submission's probabilities in one column against the answers' labels in the
// same column, rows paired by an id column.
#ifndef MLEBENCH_GRADING_METRICS_ROC_AUC_BY_ID_H_
#define MLEBENCH_GRADING_METRICS_ROC_AUC_BY_ID_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "base/typed_table.h"

namespace mlebench {

// PrepareForAurocMetric (metric_inputs.h) then RocAucScore; since the answers'
// labels are checked first (two classes, finite), what roc_auc_score still
// rejects (NaN scores) is the submission's: InvalidSubmission
// "roc_auc_score rejects `<target>`: <reason>".
absl::StatusOr<double> RocAucById(const TypedTable& submission, const TypedTable& answers,
                                  std::string_view id_column, std::string_view target_column);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_ROC_AUC_BY_ID_H_
