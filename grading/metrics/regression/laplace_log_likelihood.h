#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_LAPLACE_LOG_LIKELIHOOD_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_LAPLACE_LOG_LIKELIHOOD_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// osic-pulmonary-fibrosis-progression's modified Laplace log likelihood, as
// upstream's numpy code computes it, bit for bit:
//   sd = np.maximum(confidence, 70); delta = np.minimum(|actual - predicted|,
//   1000); metric = -sqrt(2) * delta / sd - log(sqrt(2) * sd); np.mean.
// Higher is better. NaN anywhere propagates (np.maximum / np.minimum keep
// NaN); no values at all give np.mean([]) = NaN.
//
// The three arrays broadcast as numpy's 1-D arrays do: a length-1 array
// stretches to the other's length; other unequal lengths are
// InvalidArgumentError with numpy's message ("operands could not be
// broadcast together with shapes (a,) (b,) "), checked for actual against
// predicted first, then for their broadcast against confidence.
absl::StatusOr<double> LaplaceLogLikelihood(absl::Span<const double> actual,
                                            absl::Span<const double> predicted,
                                            absl::Span<const double> confidence);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_LAPLACE_LOG_LIKELIHOOD_H_
