#include "grading/metrics/regression/mean_angular_error.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {

absl::StatusOr<double> MeanAngularError(absl::Span<const double> azimuth_true,
                                        absl::Span<const double> zenith_true,
                                        absl::Span<const double> azimuth_pred,
                                        absl::Span<const double> zenith_pred) {
  const size_t n = azimuth_true.size();
  if (zenith_true.size() != n || azimuth_pred.size() != n || zenith_pred.size() != n) {
    return absl::InvalidArgumentError(
        "operands could not be broadcast together: azimuth/zenith arrays differ in length");
  }
  std::vector<double> angles(n);
  for (size_t i = 0; i < n; ++i) {
    const double sa1 = std::sin(azimuth_true[i]), ca1 = std::cos(azimuth_true[i]);
    const double sz1 = std::sin(zenith_true[i]), cz1 = std::cos(zenith_true[i]);
    const double sa2 = std::sin(azimuth_pred[i]), ca2 = std::cos(azimuth_pred[i]);
    const double sz2 = std::sin(zenith_pred[i]), cz2 = std::cos(zenith_pred[i]);
    // Upstream's association order, so that rounding matches.
    double dot = sz1 * sz2 * (ca1 * ca2 + sa1 * sa2) + (cz1 * cz2);
    // np.clip keeps NaN.
    if (!std::isnan(dot)) dot = std::clamp(dot, -1.0, 1.0);
    angles[i] = std::fabs(std::acos(dot));
  }
  return NumpyMean(angles);
}

}  // namespace mlebench
