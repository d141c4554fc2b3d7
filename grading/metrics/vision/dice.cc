#include "grading/metrics/vision/dice.h"

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

absl::StatusOr<double> GlobalDiceCoefficient(std::span<const PixelRuns> predicted,
                                             std::span<const PixelRuns> truth,
                                             double both_empty_value) {
  if (predicted.size() != truth.size()) {
    return absl::InvalidArgumentError(absl::StrCat(predicted.size(), " predicted masks but ",
                                                   truth.size(), " true masks"));
  }
  int64_t overlap = 0;
  int64_t union_size = 0;
  for (size_t i = 0; i < predicted.size(); ++i) {
    if (predicted[i].pixel_count != truth[i].pixel_count) {
      return absl::InvalidArgumentError(absl::StrCat(
          "mask ", i, ": the predicted mask has ", predicted[i].pixel_count,
          " pixels, the true mask ", truth[i].pixel_count));
    }
    overlap += CountOverlap(predicted[i], truth[i]);
    union_size += CountSetPixels(predicted[i]) + CountSetPixels(truth[i]);
  }
  if (union_size == 0) return both_empty_value;
  return static_cast<double>(2 * overlap) / static_cast<double>(union_size);
}

}  // namespace mlebench
