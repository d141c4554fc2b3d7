#ifndef MLEBENCH_SYNTHETIC_JPEG_WRITER_H_
#define MLEBENCH_SYNTHETIC_JPEG_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// An 8-bit RGB image, row-major, 3 bytes per pixel.
struct RgbImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height * 3 bytes
};

// Encodes `image` as a baseline JFIF JPEG (libjpeg, integer DCT, 4:2:0
// chroma subsampling, standard Huffman tables) at `quality` (1-100). The
// output holds no timestamp or other metadata, so the same pixels always give
// the same bytes. Empty or inconsistent images are an error.
absl::StatusOr<std::string> EncodeJpeg(const RgbImage& image, int quality = 90);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_JPEG_WRITER_H_
