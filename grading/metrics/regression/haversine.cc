#include "grading/metrics/regression/haversine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr double kHaversineRadiusMeters = 6'371'000;
// numpy's deg2rad multiplies by this constant (npy_deg2rad).
constexpr double kRadiansPerDegree = 3.141592653589793238462643383279502884 / 180.0;
// np.deg2rad(True) in float16: 1 degree computed in float32, rounded to half.
constexpr double kFloat16RadiansOfTrue = 0.0174560546875;

double Radians(double degrees, AngleDtype dtype) {
  if (dtype == AngleDtype::kBool) return degrees != 0 ? kFloat16RadiansOfTrue : 0.0;
  return degrees * kRadiansPerDegree;
}

}  // namespace

absl::StatusOr<std::vector<double>> HaversineDistancesMeters(
    absl::Span<const double> pred_lat, absl::Span<const double> pred_lng,
    absl::Span<const double> true_lat, absl::Span<const double> true_lng,
    AngleDtype pred_lat_dtype, AngleDtype pred_lng_dtype) {
  const size_t n = pred_lat.size();
  if (pred_lng.size() != n || true_lat.size() != n || true_lng.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("haversine inputs differ in length: ", pred_lat.size(), ", ", pred_lng.size(),
                     ", ", true_lat.size(), ", ", true_lng.size()));
  }
  std::vector<double> distances(n);
  for (size_t i = 0; i < n; ++i) {
    const double lat1 = Radians(pred_lat[i], pred_lat_dtype);
    const double lng1 = Radians(pred_lng[i], pred_lng_dtype);
    // float16's cosine of either bool angle is exactly 1.
    const double cos_lat1 = pred_lat_dtype == AngleDtype::kBool ? 1.0 : std::cos(lat1);
    const double lat2 = true_lat[i] * kRadiansPerDegree;
    const double lng2 = true_lng[i] * kRadiansPerDegree;
    const double sin_dlat = std::sin((lat2 - lat1) / 2);
    const double sin_dlng = std::sin((lng2 - lng1) / 2);
    // Same association as upstream: sin² + (cos·cos)·sin².
    const double a =
        sin_dlat * sin_dlat + cos_lat1 * std::cos(lat2) * (sin_dlng * sin_dlng);
    distances[i] = 2 * kHaversineRadiusMeters * std::asin(std::sqrt(a));
  }
  return distances;
}

absl::StatusOr<double> NumpyQuantileLinear(absl::Span<const double> values, double q) {
  if (values.empty()) {
    return absl::InvalidArgumentError("quantile of an empty array");
  }
  if (!(q >= 0 && q <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("quantile ", q, " is outside [0, 1]"));
  }
  for (double v : values) {
    if (std::isnan(v)) return std::nan("");
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const int64_t n = static_cast<int64_t>(sorted.size());
  // numpy: virtual index (n - 1) * q; neighbours floor() and floor() + 1,
  // both clamped to the last element at or above n - 1.
  const double virtual_index = static_cast<double>(n - 1) * q;
  int64_t previous = static_cast<int64_t>(std::floor(virtual_index));
  int64_t next = previous + 1;
  if (virtual_index >= static_cast<double>(n - 1)) previous = next = n - 1;
  const double gamma = virtual_index - static_cast<double>(static_cast<int64_t>(
                                           std::floor(virtual_index)));
  const double a = sorted[previous];
  const double b = sorted[next];
  // numpy's _lerp: from the nearer end, for symmetry.
  const double diff_b_a = b - a;
  return gamma >= 0.5 ? b - diff_b_a * (1 - gamma) : a + diff_b_a * gamma;
}

absl::StatusOr<double> TripHaversineScore(absl::Span<const double> pred_lat,
                                          absl::Span<const double> pred_lng,
                                          absl::Span<const double> true_lat,
                                          absl::Span<const double> true_lng,
                                          AngleDtype pred_lat_dtype, AngleDtype pred_lng_dtype) {
  ASSIGN_OR_RETURN(std::vector<double> distances,
                   HaversineDistancesMeters(pred_lat, pred_lng, true_lat, true_lng,
                                            pred_lat_dtype, pred_lng_dtype));
  ASSIGN_OR_RETURN(double p50, NumpyQuantileLinear(distances, 0.50));
  ASSIGN_OR_RETURN(double p95, NumpyQuantileLinear(distances, 0.95));
  return (p50 + p95) / 2;  // np.mean of two values
}

}  // namespace mlebench
