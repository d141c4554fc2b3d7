#include "grading/metrics/regression/mean_absolute_error.h"

#include <cmath>
#include <cstdint>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "base/status_macros.h"
#include "grading/metrics/regression_target.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// A column check_array leaves as an integer array (int64 or bool): numpy
// then subtracts in integers.
bool StaysInteger(const Column& column) {
  return column.dtype == Dtype::kInt64 || column.dtype == Dtype::kBool;
}

int64_t IntegerValue(const Cell& cell) {
  if (const bool* b = std::get_if<bool>(&cell)) return *b ? 1 : 0;
  return std::get<int64_t>(cell);
}

// np.abs(y_pred - y_true) in int64: two's complement wrap-around, and
// abs(INT64_MIN) stays INT64_MIN, as numpy computes them.
std::vector<double> IntegerAbsoluteErrors(const Column& y_true, const Column& y_pred) {
  std::vector<double> errors(y_true.cells.size());
  for (size_t i = 0; i < errors.size(); ++i) {
    const uint64_t difference = static_cast<uint64_t>(IntegerValue(y_pred.cells[i])) -
                                static_cast<uint64_t>(IntegerValue(y_true.cells[i]));
    const int64_t signed_difference = static_cast<int64_t>(difference);
    const int64_t magnitude =
        signed_difference < 0 ? static_cast<int64_t>(uint64_t{0} - difference) : signed_difference;
    errors[i] = static_cast<double>(magnitude);
  }
  return errors;
}

}  // namespace

absl::StatusOr<double> MeanAbsoluteError(absl::Span<const double> y_true,
                                         absl::Span<const double> y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.size(), y_pred.size()));
  RETURN_IF_ERROR(CheckRegressionValues(y_true));
  RETURN_IF_ERROR(CheckRegressionValues(y_pred));
  std::vector<double> errors(y_true.size());
  for (size_t i = 0; i < errors.size(); ++i) errors[i] = std::fabs(y_pred[i] - y_true[i]);
  // np.average over axis 0 of the (n, 1) errors, then the uniform average of
  // that one output, which changes nothing.
  return NumpyMean(errors);
}

absl::StatusOr<double> MeanAbsoluteError(const Column& y_true, const Column& y_pred) {
  RETURN_IF_ERROR(CheckConsistentLength(y_true.cells.size(), y_pred.cells.size()));
  ASSIGN_OR_RETURN(RegressionTarget true_values, CheckRegressionTarget(y_true));
  ASSIGN_OR_RETURN(RegressionTarget pred_values, CheckRegressionTarget(y_pred));
  if (true_values.is_bool && pred_values.is_bool) {
    return absl::InvalidArgumentError(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
        "`^` operator, or the logical_xor function instead.");
  }
  if (StaysInteger(y_true) && StaysInteger(y_pred)) {
    return NumpyMean(IntegerAbsoluteErrors(y_true, y_pred));
  }
  return MeanAbsoluteError(true_values.values, pred_values.values);
}

}  // namespace mlebench
