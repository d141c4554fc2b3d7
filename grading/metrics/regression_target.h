#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_TARGET_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_TARGET_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// A 1-D regression target (a pandas column handed to a scikit-learn
// regression metric) after sklearn's `check_array(y, ensure_2d=False,
// dtype="numeric")` has converted it: bool, int64 and float64 columns keep
// their dtype, object columns become float64. `values` holds the numbers
// (bools as 0/1, int64 converted to the nearest double, missing as NaN);
// `is_bool` records that numpy still sees a bool array, which matters to
// functions whose numpy loops pick a narrower float type for bools (np.log1p
// computes bools in float16); `is_int64` an int64 array, whose arithmetic
// numpy does in int64 (`ints` holds the exact values of both kinds).
struct RegressionTarget {
  std::vector<double> values;
  bool is_bool = false;
  bool is_int64 = false;
  std::vector<int64_t> ints;  // for bool and int64 targets: 0/1, the values
};

// Converts `column` as check_array does, before its finiteness and size
// checks (the metrics run those, in sklearn's order). Object cells convert as
// numpy's float64 conversion does (ObjectToFloat64: Python's float() on
// each element). A string that float() rejects is InvalidArgumentError with
// numpy's message, "could not convert string to float: '<text>'".
absl::StatusOr<RegressionTarget> ToRegressionTarget(const Column& column);

// The checks check_array then runs on the converted values, in its order:
// a non-finite value ("Input contains NaN." or "Input contains infinity or a
// value too large for dtype('float64').") and then an empty target ("Found
// array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.") are
// InvalidArgumentError.
absl::Status CheckRegressionValues(absl::Span<const double> values);

// Both steps: check_array(column, ensure_2d=False, dtype="numeric").
absl::StatusOr<RegressionTarget> CheckRegressionTarget(const Column& column);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_TARGET_H_
