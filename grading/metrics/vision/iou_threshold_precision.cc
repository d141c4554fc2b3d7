#include "grading/metrics/vision/iou_threshold_precision.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {

absl::StatusOr<double> IouThresholdPrecision(const PixelRuns& truth, const PixelRuns& predicted) {
  if (truth.pixel_count != predicted.pixel_count) {
    return absl::InvalidArgumentError(absl::StrCat("the true mask has ", truth.pixel_count,
                                                   " pixels, the predicted mask ",
                                                   predicted.pixel_count));
  }
  const int64_t n = truth.pixel_count;
  int64_t true_count = CountSetPixels(truth);
  int64_t predicted_count = CountSetPixels(predicted);
  if (true_count == 0) return predicted_count == 0 ? 1.0 : 0.0;
  int64_t overlap = CountOverlap(truth, predicted);
  // The histogram quirk: a constant mask's pixels all land in the object bin.
  const bool truth_constant = true_count == n;  // (true_count == 0 returned above)
  const bool predicted_constant = predicted_count == 0 || predicted_count == n;
  if (truth_constant && predicted_constant) {
    overlap = n;
  } else if (truth_constant) {
    overlap = predicted_count;
  } else if (predicted_constant) {
    overlap = true_count;
  }
  if (truth_constant) true_count = n;
  if (predicted_constant) predicted_count = n;
  // Histogram counts are float64, as is the division.
  const double iou =
      static_cast<double>(overlap) / static_cast<double>(true_count + predicted_count - overlap);
  // np.arange(0.5, 1.0, 0.05) holds ten thresholds start + i * delta with
  // delta = (start + step) - start, as numpy fills it (0.6000000000000001...).
  // Each gives a precision of 1 (a match) or 0; np.mean of ten 0/1 values is
  // k / 10.
  const double delta = (0.5 + 0.05) - 0.5;
  int passed = 0;
  for (int i = 0; i < 10; ++i) {
    if (iou > 0.5 + i * delta) ++passed;
  }
  return static_cast<double>(passed) / 10.0;
}

}  // namespace mlebench
