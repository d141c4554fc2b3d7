#ifndef MLEBENCH_GRADING_METRICS_VISION_LYFT_BOX3D_MAP_H_
#define MLEBENCH_GRADING_METRICS_VISION_LYFT_BOX3D_MAP_H_

// The Lyft 3-D object detection mAP that upstream's
// 3d-object-detection-for-autonomous-vehicles grader computes: its
// parse_row, and Lyft's mAP_evaluation.py (Box3D, recall_precision, get_ap)
// evaluated per sample at the IoU thresholds 0.5, 0.55, ..., 0.95.
//
// Upstream quirks kept here:
//  - Boxes are validated lazily. parse_row only converts the numbers (and
//    rejects a yaw of +-inf, which math.cos refuses); Box3D, which rejects NaN
//    coordinates, sizes <= 0 and corners that fail its orthogonality asserts,
//    is only built for the classes a sample has in BOTH its answer and its
//    prediction row. Boxes of any other class are never checked.
//  - A prediction is a true positive iff its best IoU (numpy max/argmax: the
//    first NaN, else the first maximum) is strictly above the threshold and
//    that very answer box is still unmatched; there is no fallback to the
//    next-best box.
//  - An answer row without boxes has no classes: its mean over classes is
//    np.mean([]) = NaN, and so is the final score.
//  - Ground areas come from GEOS (the library shapely wraps), in the same
//    order as upstream's `prediction_polygon.intersection(answer_polygon)`.
//  - Predictions are ranked by CPython's own sorted(..., reverse=True)
//    (python_list_sort.h), whose order with NaN scores is timsort's.

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// One box of a PredictionString: "score x y z width length height yaw name".
struct LyftBox {
  double score = 0;
  double center_x = 0, center_y = 0, center_z = 0;
  double width = 0, length = 0, height = 0;
  // pyquaternion's Quaternion(axis=[0, 0, 1], radians=yaw) as [w, x, y, z].
  std::array<double, 4> rotation = {1, 0, 0, 0};
  std::string name;
};

// parse_row on the text of a PredictionString cell (UTF-8): a text that is
// empty after Python's str.strip() holds no boxes; otherwise it is split on
// single spaces (so doubled, leading or trailing spaces make empty tokens),
// the token count must be a multiple of 9, and the first 8 tokens of each
// group must parse with Python's float(); the 9th is the class name, any text.
// Errors (InvalidArgumentError, saying why) where upstream raises: text that
// is not UTF-8, a bad token count, a token float() rejects, an infinite yaw.
absl::StatusOr<std::vector<LyftBox>> ParseLyftPredictionString(std::string_view text);

// One sample (one Id): its answer boxes and the submission's boxes.
struct LyftSample {
  std::vector<LyftBox> truths;
  std::vector<LyftBox> predictions;
  // Box3D raises TypeError when the sample token (the row's Id) is not a str
  // (e.g. numeric Ids read as int64); like every Box3D check, only where a
  // box is built.
  bool token_is_text = true;
};

inline constexpr std::array<double, 10> kLyftIouThresholds = {0.5,  0.55, 0.6,  0.65, 0.7,
                                                              0.75, 0.8,  0.85, 0.9,  0.95};

// process_sample: for each threshold of kLyftIouThresholds, np.mean over the
// sorted (by code point) answer class names of the class AP (0 for a class the
// sample's predictions lack). Each IoU is computed once and reused for all
// thresholds (upstream recomputes it; the results are identical).
// Errors where upstream raises on a built box: InvalidArgumentError for a
// prediction box (or a GEOS failure), FailedPreconditionError for an answer
// box (malformed answers); messages name the check that failed.
absl::StatusOr<std::array<double, 10>> LyftSampleAveragePrecisions(const LyftSample& sample);

// The grade: np.mean of the 10 values of every sample, samples in the given
// order (numpy's pairwise summation). NaN for no samples or where a sample
// has no answer boxes. Errors as LyftSampleAveragePrecisions, the message
// prefixed with "sample <index>: ".
absl::StatusOr<double> LyftMeanAveragePrecision(const std::vector<LyftSample>& samples);

// The order in which recall_precision visits predictions with these scores:
// `sorted(predictions, key=score, reverse=True)`, exactly as CPython orders
// them (ties keep their order; NaN scores land where timsort puts them).
std::vector<size_t> PredictionRankOrder(const std::vector<double>& scores);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_LYFT_BOX3D_MAP_H_
