#include "grading/metrics/dice.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {

absl::StatusOr<double> DiceCoefficient(const PixelRuns& predicted, const PixelRuns& truth,
                                       double both_empty_value) {
  if (predicted.pixel_count != truth.pixel_count) {
    return absl::InvalidArgumentError(absl::StrCat("the predicted mask has ", predicted.pixel_count,
                                                   " pixels, the true mask ", truth.pixel_count));
  }
  const int64_t union_size = CountSetPixels(predicted) + CountSetPixels(truth);
  if (union_size == 0) return both_empty_value;
  // numpy: 2 * int64 -> int64, then int64 / int64 -> float64.
  return static_cast<double>(2 * CountOverlap(predicted, truth)) / static_cast<double>(union_size);
}

}  // namespace mlebench
