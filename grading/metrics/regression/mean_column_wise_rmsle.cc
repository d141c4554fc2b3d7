#include "grading/metrics/regression/mean_column_wise_rmsle.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/regression/rmsle.h"

namespace mlebench {

absl::StatusOr<double> MeanColumnWiseRmsle(absl::Span<const Column* const> y_true,
                                           absl::Span<const Column* const> y_pred) {
  if (y_true.empty() || y_true.size() != y_pred.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("mean column-wise RMSLE needs the same positive "
                     "number of true and predicted columns, got ",
                     y_true.size(), " and ", y_pred.size()));
  }
  double sum = 0.0;
  for (size_t i = 0; i < y_true.size(); ++i) {
    ASSIGN_OR_RETURN(double column_rmsle, RootMeanSquaredLogError(*y_true[i], *y_pred[i]));
    sum += column_rmsle;
  }
  return sum / static_cast<double>(y_true.size());
}

}  // namespace mlebench
