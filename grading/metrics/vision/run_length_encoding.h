#ifndef MLEBENCH_GRADING_METRICS_VISION_RUN_LENGTH_ENCODING_H_
#define MLEBENCH_GRADING_METRICS_VISION_RUN_LENGTH_ENCODING_H_

// Kaggle's run-length encoded (RLE) binary masks, as upstream's
// `mlebench.competitions.utils.rle_decode` reads them: "start length start
// length ...", 1-based starts into the image's pixels flattened in some order
// (top-to-bottom then left-to-right for rle_decode; competitions that use the
// other order decode the transposed image, which only relabels pixels).
//
// A decoded mask is kept as its runs, never as a dense image, so memory stays
// proportional to the RLE text whatever the image size or run lengths.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// The set pixels of a mask over `pixel_count` pixels in their flattened
// order: sorted, disjoint, non-empty half-open ranges [begin, end) of 0-based
// positions within [0, pixel_count).
struct PixelRuns {
  int64_t pixel_count = 0;
  std::vector<std::pair<int64_t, int64_t>> runs;
};

// rle_decode(rle, height, width) for an image of `pixel_count` pixels
// (height * width), with upstream's semantics:
//  - a string that is empty or only whitespace is the empty mask;
//  - tokens are split on Python whitespace and read as Python int() does
//    (optional sign, ASCII digits, single underscores between digits);
//  - starts must be sorted (non-decreasing) and every start and length
//    positive;
//  - an odd count of values is what numpy's broadcasting of the starts
//    against the lengths makes of it: one value is the empty mask ((1,) with
//    (0,)), three values are two runs of the one length ((2,) with (1,)),
//    five or more are numpy's broadcast error;
//  - runs are clipped to the image: a start past the last pixel sets
//    nothing, a run reaching past it stops there;
//  - a run covering a pixel that an earlier run set is an error ("overlapping
//    RLE pairs").
// Every error is InvalidArgumentError with a specific reason; upstream raises
// (AssertionError or ValueError) in exactly these cases. Deviations, where
// upstream's behaviour depends on numpy's integer promotion: a value outside
// the int64 range is rejected here as too large, and a non-ASCII decimal digit
// (which int() accepts) is rejected as not an integer.
// InvalidArgumentError also for text that is not UTF-8 or a negative
// pixel_count.
absl::StatusOr<PixelRuns> DecodeRle(std::string_view rle, int64_t pixel_count);

// The number of set pixels.
int64_t CountSetPixels(const PixelRuns& mask);

// The number of pixels set in both masks (which must have the same
// pixel_count; the result is meaningless otherwise).
int64_t CountOverlap(const PixelRuns& a, const PixelRuns& b);

// How a mask's pixels are flattened for RLE.
enum class PixelOrder {
  kColumnMajor,  // down each column, then the next column (rle_decode)
  kRowMajor,     // along each row, then the next row
};

// The dense mask of `runs` for a height x width image, row-major (one byte
// per pixel, 0 or 1), where the runs count pixels in `order`.
// InvalidArgumentError if runs.pixel_count != height * width.
absl::StatusOr<std::vector<uint8_t>> RunsToDenseMask(const PixelRuns& runs, int64_t height,
                                                     int64_t width, PixelOrder order);

// The RLE text ("start length ...", single spaces, "" for an empty mask) of a
// row-major dense mask (non-zero bytes are set) of a height x width image,
// with pixels counted in `order`. InvalidArgumentError if the sizes disagree.
absl::StatusOr<std::string> EncodeRle(const std::vector<uint8_t>& row_major_mask, int64_t height,
                                      int64_t width, PixelOrder order);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_RUN_LENGTH_ENCODING_H_
