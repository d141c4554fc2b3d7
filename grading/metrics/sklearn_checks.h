#ifndef MLEBENCH_GRADING_METRICS_SKLEARN_CHECKS_H_
#define MLEBENCH_GRADING_METRICS_SKLEARN_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace mlebench {

// Input checks that scikit-learn's metrics share (sklearn.utils.validation),
// with sklearn's messages. Each failure is an InvalidArgumentError whose
// message is the ValueError's text.

// numpy's `x == x.astype(int)` on x86-64: finite, integral and in int64's
// range; out-of-range values convert to INT64_MIN, so -2**63 itself counts.
// This is how sklearn's type_of_target tells integral floats ("binary",
// "multiclass") from "continuous" ones. Inline, and without std::trunc (a
// libm call on baseline x86-64): it runs once per label of a large target.
inline bool IsNumpyIntegral(double x) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(x >= -kTwo63 && x < kTwo63)) return false;  // NaN and inf too
  // In range, the conversion truncates exactly; only integral values survive
  // the round trip.
  return static_cast<double>(static_cast<int64_t>(x)) == x;
}

// _assert_all_finite: OK when every value is finite; otherwise the first
// non-finite value (in memory order) decides the message:
// "Input {name }contains NaN." or
// "Input {name }contains infinity or a value too large for dtype('float64')."
absl::Status AssertAllFinite(absl::Span<const double> values, std::string_view input_name);

// check_consistent_length for two inputs: "Found input variables with
// inconsistent numbers of samples: [a, b]".
absl::Status CheckConsistentLength(size_t a, size_t b);

// check_array's ensure_min_samples / ensure_min_features for an array of
// `shape` (Python's tuple repr, e.g. "(0,)" or "(0, 3)").
absl::Status CheckNonEmpty(size_t rows, size_t cols, bool one_dimensional);

// Python's repr of a shape tuple: "(n,)" or "(n, m)".
std::string ShapeRepr(size_t rows, size_t cols, bool one_dimensional);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_SKLEARN_CHECKS_H_
