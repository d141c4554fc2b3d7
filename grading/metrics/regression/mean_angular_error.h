#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ANGULAR_ERROR_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ANGULAR_ERROR_H_

// The IceCube competition's metric (upstream's angular_dist_score): the mean
// angle, in radians, between true and predicted directions given as
// azimuth / zenith pairs in radians. Lower is better; 0 is perfect, pi the
// worst.

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// Each direction becomes the unit vector (sin z cos a, sin z sin a, cos z);
// the score is numpy's mean of arccos(clip(dot product, -1, 1)) over the
// rows, with numpy's pairwise summation. NaN inputs give NaN, as in numpy;
// an empty input gives NaN (np.average of nothing). InvalidArgumentError if
// the four spans differ in length (numpy's broadcasting error).
absl::StatusOr<double> MeanAngularError(absl::Span<const double> azimuth_true,
                                        absl::Span<const double> zenith_true,
                                        absl::Span<const double> azimuth_pred,
                                        absl::Span<const double> zenith_pred);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_MEAN_ANGULAR_ERROR_H_
