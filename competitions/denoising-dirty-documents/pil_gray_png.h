#ifndef MLEBENCH_COMPETITIONS_DENOISING_DIRTY_DOCUMENTS_PIL_GRAY_PNG_H_
#define MLEBENCH_COMPETITIONS_DENOISING_DIRTY_DOCUMENTS_PIL_GRAY_PNG_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// An 8-bit grayscale image, row-major.
struct GrayImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height
};

// PIL's `Image.open(png).convert("L")`, decoded with libpng: 8-bit (or
// 1/2/4-bit, bit-replicated to 8) gray as is; gray with alpha drops the alpha;
// RGB, RGBA and palette images go through PIL's integer luma
// (R*19595 + G*38470 + B*7471 + 0x8000) >> 16. Gamma chunks are ignored, as
// PIL ignores them. 16-bit images (which PIL opens in its "I;16" modes) and
// anything libpng cannot decode (truncated, corrupt, not a PNG) are
// InvalidArgumentError naming `name`.
absl::StatusOr<GrayImage> DecodePngAsPilGray(std::string_view bytes, std::string_view name);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_DENOISING_DIRTY_DOCUMENTS_PIL_GRAY_PNG_H_
