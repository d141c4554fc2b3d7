#ifndef MLEBENCH_GRADING_METRICS_VISION_DICE_H_
#define MLEBENCH_GRADING_METRICS_VISION_DICE_H_

// The Dice coefficient of two binary masks, as upstream's
// `mlebench.metrics.dice_coefficient` computes it.

#include <span>

#include "absl/status/statusor.h"
#include "grading/metrics/vision/run_length_encoding.h"

namespace mlebench {

// 2 * |predicted & truth| / (|predicted| + |truth|), or `both_empty_value`
// when neither mask has a set pixel (upstream's default is NaN; the HuBMAP
// grader passes 1.0). InvalidArgumentError when the masks have different
// pixel counts (upstream's shape assertion).
absl::StatusOr<double> DiceCoefficient(const PixelRuns& predicted, const PixelRuns& truth,
                                       double both_empty_value);

// The global Dice coefficient over many images: upstream's
// dice_coefficient on all masks stacked and flattened (the contrails grader),
// i.e. 2 * sum of overlaps / (sum of predicted sizes + sum of true sizes), or
// `both_empty_value` when no mask has a set pixel (including no images).
// predicted[i] and truth[i] must have the same pixel count
// (InvalidArgumentError otherwise, as is a different number of masks);
// different images may have different sizes.
absl::StatusOr<double> GlobalDiceCoefficient(std::span<const PixelRuns> predicted,
                                             std::span<const PixelRuns> truth,
                                             double both_empty_value);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_DICE_H_
