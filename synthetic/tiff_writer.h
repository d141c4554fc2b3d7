#ifndef MLEBENCH_SYNTHETIC_TIFF_WRITER_H_
#define MLEBENCH_SYNTHETIC_TIFF_WRITER_H_

#include <string>

#include "absl/status/statusor.h"
#include "synthetic/jpeg_writer.h"

namespace mlebench {

// Encodes `image` as a baseline TIFF 6.0 file: little-endian ("II"), one
// uncompressed strip of interleaved 8-bit RGB, and the tags a baseline reader
// requires (width, length, bits per sample, compression = none, photometric =
// RGB, strip offsets, samples per pixel, rows per strip, strip byte counts,
// X/Y resolution 72 per inch, planar configuration = chunky). The file holds
// no timestamp or software tag, so the same pixels always give the same bytes.
// Empty or inconsistent images are an error.
absl::StatusOr<std::string> EncodeTiff(const RgbImage& image);

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_TIFF_WRITER_H_
