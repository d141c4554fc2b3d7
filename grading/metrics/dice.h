#ifndef MLEBENCH_GRADING_METRICS_DICE_H_
#define MLEBENCH_GRADING_METRICS_DICE_H_

// The Dice coefficient of two binary masks, as upstream's
// `mlebench.metrics.dice_coefficient` computes it.

#include "absl/status/statusor.h"
#include "grading/metrics/run_length_encoding.h"

namespace mlebench {

// 2 * |predicted & truth| / (|predicted| + |truth|), or `both_empty_value`
// when neither mask has a set pixel (upstream's default is NaN; the HuBMAP
// grader passes 1.0). InvalidArgumentError when the masks have different
// pixel counts (upstream's shape assertion).
absl::StatusOr<double> DiceCoefficient(const PixelRuns& predicted, const PixelRuns& truth,
                                       double both_empty_value);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_DICE_H_
