#ifndef MLEBENCH_GRADING_METRICS_VISION_IOU_THRESHOLD_PRECISION_H_
#define MLEBENCH_GRADING_METRICS_VISION_IOU_THRESHOLD_PRECISION_H_

// The TGS Salt grader's per-image score (upstream's
// tgs-salt-identification-challenge `iou_metric`): the precision
// tp / (tp + fp + fn) of a single object, averaged over the IoU thresholds
// 0.5, 0.55, ..., 0.95.

#include "absl/status/statusor.h"
#include "grading/metrics/vision/run_length_encoding.h"

namespace mlebench {

// upstream's iou_metric(truth, predicted):
//  - an empty true mask scores 1 against an empty prediction, else 0;
//  - otherwise the IoU of the two masks is compared with each threshold t
//    (strictly: iou > t), and the score is the fraction of thresholds passed.
// Quirk kept from upstream: the IoU comes from np.histogram2d with two bins,
// whose range collapses for a constant mask, putting all its pixels in the
// "object" bin; so a constant mask (all set or all unset) counts as all set.
// An empty prediction against a true mask covering more than half the image
// thus scores above 0, and against a full true mask scores 1.
// InvalidArgumentError when the pixel counts differ.
absl::StatusOr<double> IouThresholdPrecision(const PixelRuns& truth, const PixelRuns& predicted);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_IOU_THRESHOLD_PRECISION_H_
