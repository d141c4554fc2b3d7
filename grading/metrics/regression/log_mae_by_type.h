#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_LOG_MAE_BY_TYPE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_LOG_MAE_BY_TYPE_H_

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// The champs-scalar-coupling metric as upstream computes it: rows grouped by
// their text label in `types` (pandas `groupby`: keys sorted as Python sorts
// str, i.e. by code point; rows with a missing label dropped), for each group
// np.log(sklearn mean_absolute_error(y_true, y_pred)) over the group's rows
// in their order, then np.mean of those logs in key order.
//
// A group predicted perfectly has log(0) = -inf and one whose MAE overflows
// has +inf, so the mean may be -inf, +inf or NaN, as numpy computes it. No
// group at all is np.mean([]): NaN.
//
// Errors: columns of unequal length, or a label that is neither text nor
// missing (only text labels are supported), are InvalidArgumentError; then
// MeanAbsoluteError's error for the first group, in key order, that fails
// (y_true checked before y_pred within a group, as sklearn does).
absl::StatusOr<double> LogMaeByType(const Column& types, const Column& y_true,
                                    const Column& y_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_LOG_MAE_BY_TYPE_H_
