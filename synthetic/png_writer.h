#ifndef MLEBENCH_SYNTHETIC_PNG_WRITER_H_
#define MLEBENCH_SYNTHETIC_PNG_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// The pixel layouts EncodePng writes; the value is the bytes per pixel.
enum class PngColor { kGray = 1, kRgb = 3 };

// An 8-bit image, row-major, `static_cast<int>(color)` bytes per pixel
// (gray: one byte; RGB: red, green, blue).
struct PngImage {
  int width = 0;
  int height = 0;
  PngColor color = PngColor::kRgb;
  std::vector<uint8_t> pixels;  // width * height * bytes-per-pixel
};

// Encodes `image` as a non-interlaced 8-bit PNG (color type 0 for gray, 2 for
// RGB) with libpng at a fixed zlib level and filter choice, holding only the
// IHDR, IDAT and IEND chunks: no time, gamma or text, so the same pixels
// always give the same bytes. Empty or inconsistent images are an error.
absl::StatusOr<std::string> EncodePng(const PngImage& image);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_PNG_WRITER_H_
