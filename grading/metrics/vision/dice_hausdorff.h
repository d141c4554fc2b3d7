#ifndef MLEBENCH_GRADING_METRICS_VISION_DICE_HAUSDORFF_H_
#define MLEBENCH_GRADING_METRICS_VISION_DICE_HAUSDORFF_H_

// The UW-Madison GI tract grader's score ("dice-hausdorff-combo"):
//   0.4 * nanmean(per-row 2-D Dice) + 0.6 * (1 - nanmean(per-case-day 3-D
//   normalised Hausdorff distance)),
// with upstream's exact semantics, including its positional pairing quirks.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grading/metrics/vision/run_length_encoding.h"

namespace mlebench {

// One 2-D slice mask: a height x width image whose set pixels are `runs`,
// counted down each column (rle_decode's order).
struct SliceMask {
  int64_t height = 0;
  int64_t width = 0;
  PixelRuns runs;  // runs.pixel_count == height * width
};

// A 3-D mask: slices stacked along the first axis, each a height x width
// image (pixel_count == height * width) with its runs counted down columns.
struct MaskVolume {
  int64_t height = 0;
  int64_t width = 0;
  std::vector<PixelRuns> slices;
};

// upstream's group_masks_by_day: masks are stably sorted by id; masks with
// the same id are ORed into one slice; slices go to the case-day named by the
// id's text before its first "_slice_", in order of first appearance among
// the sorted ids, and are stacked in that order. Only the first
// min(masks.size(), ids.size()) pairs count (Python's zip).
// InvalidArgumentError when masks ORed or stacked together differ in shape
// (numpy raises).
absl::StatusOr<std::vector<MaskVolume>> GroupMasksByDay(const std::vector<SliceMask>& masks,
                                                        const std::vector<std::string>& ids);

// upstream's hausdorff_distance of two 3-D masks (shapes may differ):
//  - NaN when both are empty, 0 when they are equal (same shape and voxels),
//    1 when exactly one is empty, 1 when `predicted` has more than 10 times
//    as many voxels as `truth`;
//  - otherwise voxel indices are divided by truth's shape (slices, height,
//    width), the symmetric Hausdorff distance of the two point sets is taken
//    (scipy's directed_hausdorff, both ways, the larger) and divided by
//    sqrt(3). Bit-identical to scipy: same squared-distance arithmetic, exact
//    max-min.
double NormalizedHausdorffDistance(const MaskVolume& predicted, const MaskVolume& truth);

// upstream's grade() after its column checks and fillna(""): submission row
// i is decoded with answer row i's height and width (Python's zip: only the
// first min(#submission rows, #answer rows) submission rows are decoded and
// used; all answer rows are). Dice is per row pair (NaN when both empty),
// Hausdorff per case-day pair, the i-th submission case-day with the i-th
// answer case-day (zip again: pairing is positional, never by id), each
// averaged with np.nanmean (NaN if all NaN). InvalidArgumentError, naming
// the side ("submission" or "answers"), for an RLE that rle_decode rejects
// or masks of different shapes grouped together; for differing column
// lengths among the answer vectors; for negative heights or widths.
absl::StatusOr<double> DiceHausdorffScore(const std::vector<std::string>& submission_ids,
                                          const std::vector<std::string>& submission_rles,
                                          const std::vector<std::string>& answer_ids,
                                          const std::vector<std::string>& answer_rles,
                                          const std::vector<int64_t>& answer_heights,
                                          const std::vector<int64_t>& answer_widths);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_DICE_HAUSDORFF_H_
