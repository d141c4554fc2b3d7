#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_HAVERSINE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_HAVERSINE_H_

// smartphone-decimeter-2022's metric (upstream's notebook.py, from the
// Kaggle "GSDC2 - baseline submission" notebook): great-circle distances on a
// sphere of radius 6,371,000 m, and the per-trip score built from them.

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// The dtype of a predicted angle array as numpy sees it. np.deg2rad of a bool
// array (a column of True/False) computes in float16, and so does np.cos of
// the result: True becomes 0.0174560546875 radians, and the cosine of both
// values rounds to 1 in float16. Every other numeric column is float64.
enum class AngleDtype { kFloat64, kBool };

// Upstream's pandas_haversine_distance: the haversine distance in metres
// between (pred_lat[i], pred_lng[i]) and (true_lat[i], true_lng[i]), all in
// degrees (for a kBool prediction array, 1 or 0), computed in upstream's
// operation order. NaN or infinite inputs give NaN distances, as in numpy.
// Spans of different lengths: InvalidArgumentError.
absl::StatusOr<std::vector<double>> HaversineDistancesMeters(
    absl::Span<const double> pred_lat, absl::Span<const double> pred_lng,
    absl::Span<const double> true_lat, absl::Span<const double> true_lng,
    AngleDtype pred_lat_dtype = AngleDtype::kFloat64,
    AngleDtype pred_lng_dtype = AngleDtype::kFloat64);

// numpy's `np.quantile(values, q)` with the default "linear" method, q in
// [0, 1]; NaN if any value is NaN. Empty `values`: InvalidArgumentError
// (numpy raises IndexError).
absl::StatusOr<double> NumpyQuantileLinear(absl::Span<const double> values, double q);

// Upstream's calc_score for one trip: the mean of the 50th and 95th
// percentiles of the haversine distances (lower is better). NaN where any
// distance is NaN. Empty or mismatched spans: InvalidArgumentError.
absl::StatusOr<double> TripHaversineScore(absl::Span<const double> pred_lat,
                                          absl::Span<const double> pred_lng,
                                          absl::Span<const double> true_lat,
                                          absl::Span<const double> true_lng,
                                          AngleDtype pred_lat_dtype = AngleDtype::kFloat64,
                                          AngleDtype pred_lng_dtype = AngleDtype::kFloat64);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_HAVERSINE_H_
