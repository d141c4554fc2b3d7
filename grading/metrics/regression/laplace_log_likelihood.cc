#include "grading/metrics/regression/laplace_log_likelihood.h"

#include <cmath>
#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// numpy's broadcast of two 1-D shapes.
absl::StatusOr<size_t> Broadcast(size_t a, size_t b) {
  if (a == b || b == 1) return a;
  if (a == 1) return b;
  return absl::InvalidArgumentError(absl::StrCat(
      "operands could not be broadcast together with shapes (", a, ",) (", b, ",) "));
}

// Element i of an array broadcast to a longer length.
double At(absl::Span<const double> values, size_t i) {
  return values.size() == 1 ? values[0] : values[i];
}

// np.maximum / np.minimum: NaN in either operand gives NaN.
double NumpyMaximum(double a, double b) { return std::isnan(a) || a >= b ? a : b; }
double NumpyMinimum(double a, double b) { return std::isnan(a) || a <= b ? a : b; }

}  // namespace

absl::StatusOr<double> LaplaceLogLikelihood(absl::Span<const double> actual,
                                            absl::Span<const double> predicted,
                                            absl::Span<const double> confidence) {
  ASSIGN_OR_RETURN(size_t delta_size, Broadcast(actual.size(), predicted.size()));
  ASSIGN_OR_RETURN(size_t size, Broadcast(delta_size, confidence.size()));
  const double sqrt2 = std::sqrt(2.0);
  std::vector<double> metric(size);
  for (size_t i = 0; i < metric.size(); ++i) {
    const double sd = NumpyMaximum(At(confidence, i), 70.0);
    const double delta = NumpyMinimum(std::fabs(At(actual, i) - At(predicted, i)), 1000.0);
    metric[i] = -sqrt2 * delta / sd - std::log(sqrt2 * sd);
  }
  return NumpyMean(metric);
}

}  // namespace mlebench
