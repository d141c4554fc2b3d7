#ifndef MLEBENCH_GRADING_METRICS_VISION_BOX_AVERAGE_PRECISION_H_
#define MLEBENCH_GRADING_METRICS_VISION_BOX_AVERAGE_PRECISION_H_

// Box matching and average precision, in the two flavours upstream's
// detection graders use:
//  - GreedyBoxMeanAveragePrecision: siim-covid19-detection's calculate_map
//    (per-class greedy matching, then sklearn's average_precision_score);
//  - CocoBoxAveragePrecision: pycocotools' COCOeval "bbox" AP (stats[0]) as
//    vinbigdata-chest-xray-abnormalities-detection configures it.
// Parsing prediction strings is the graders' job; these take numbers.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// sklearn.metrics.average_precision_score(y_true, y_score) for binary 0/1
// labels (sklearn >= 1.5): the step-wise (uninterpolated) area under the
// precision-recall curve, thresholds at distinct scores. Errors as sklearn
// raises: lengths differ, a label other than 0/1, a non-finite score.
// Requires at least one positive (callers here always have one; sklearn
// would warn and return a degenerate value otherwise): an error if none.
absl::StatusOr<double> BinaryAveragePrecision(const std::vector<int>& y_true,
                                              const std::vector<double>& y_score);

// An axis-aligned box by its corners.
struct CornerBox {
  double x_min = 0, y_min = 0, x_max = 0, y_max = 0;
};

// siim's calculate_iou: intersection over union of two corner boxes with
// Python's max/min (a NaN operand propagates as Python's builtins do), 0.0
// when the union is not positive.
double CornerBoxIou(const CornerBox& a, const CornerBox& b);

// One labelled box: a prediction (with confidence) or a ground truth (whose
// confidence is not used).
struct LabeledBox {
  std::string label;
  double confidence = 0;
  CornerBox box;
};

// siim-covid19-detection's calculate_map. `predictions[i]` and `truths[i]`
// are the boxes of sample i. For each label present in `truths` (sorted as
// Python sorts str), each sample's predictions are sorted by descending
// confidence exactly as upstream's in-place `list.sort(reverse=True)` does,
// once more for every label (PythonSortedOrder: ties keep their order, NaN
// confidences, which do not raise on labels absent from truths, land where
// CPython puts them and can reorder the other boxes), and each prediction of
// that label is matched to the unmatched truth box of that label with the
// highest IoU above `iou_threshold` (first such on ties); it yields
// (1, confidence) when matched, else (0, confidence); every unmatched truth
// box yields (1, 0); a sample yielding nothing yields (0, 0). The label's AP
// is BinaryAveragePrecision of those pairs; the result is the mean over
// labels (0.0 without labels). Errors where upstream raises: a label whose
// pairs are all positive (upstream's assert), a non-finite confidence among
// a label's predictions (sklearn), sample counts differ. The result, bit for
// bit, and the error do not depend on the order of the samples, only on which
// predictions pair with which truths (a grader may pass the pairs in any
// order).
absl::StatusOr<double> GreedyBoxMeanAveragePrecision(
    const std::vector<std::vector<LabeledBox>>& predictions,
    const std::vector<std::vector<LabeledBox>>& truths, double iou_threshold);

// A COCO box annotation as vinbigdata's grader builds it. `bbox` is what it
// stores (corners, which COCOeval reads as x, y, width, height: the IoU is
// of (x0, y0, x0 + x1, y0 + y1) boxes, as upstream computes it); `area` is
// the stored area (upstream: the corner box's (x_max-x_min)*(y_max-y_min)).
struct CocoBox {
  int64_t image = 0;  // index into the image list, 0..num_images-1
  int64_t category = 0;
  double bbox[4] = {0, 0, 0, 0};
  double area = 0;
  double score = 0;  // detections only
};

// COCOeval(gt, dt, "bbox") with params.imgIds = 0..num_images-1,
// useCats, iouThrs = [iou_threshold], default areaRng/maxDets/recThrs;
// returns stats[0] (AP over area "all", maxDets 100): -1 when no category
// has a non-ignored ground truth. Annotation ids are the vector indices
// (from 0, as upstream numbers them), and COCOeval's quirks that follow are
// kept: a detection matched to ground truth id 0 counts as a false
// positive, and ground truth 0 stays matchable when matched by detection 0.
// Detections of categories absent from `truths` or of images outside
// 0..num_images-1 are ignored. Errors: none beyond InvalidArgument for a
// negative num_images.
absl::StatusOr<double> CocoBoxAveragePrecision(int64_t num_images,
                                               const std::vector<CocoBox>& truths,
                                               const std::vector<CocoBox>& detections,
                                               double iou_threshold);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_BOX_AVERAGE_PRECISION_H_
