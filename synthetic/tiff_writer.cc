#include "synthetic/tiff_writer.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

void PutU16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}

void PutU32(std::string& out, uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

constexpr uint16_t kShort = 3, kLong = 4, kRational = 5;

// One 12-byte IFD entry whose value (or value offset) is `value`; a SHORT
// value sits in the entry's first two bytes.
void PutEntry(std::string& out, uint16_t tag, uint16_t type, uint32_t count, uint32_t value) {
  PutU16(out, tag);
  PutU16(out, type);
  PutU32(out, count);
  if (type == kShort && count == 1) {
    PutU16(out, static_cast<uint16_t>(value));
    PutU16(out, 0);
  } else {
    PutU32(out, value);
  }
}

}  // namespace

absl::StatusOr<std::string> EncodeTiff(const RgbImage& image) {
  // Past 65535 a SHORT dimension would not do; such images are not for tests.
  if (image.width <= 0 || image.height <= 0 || image.width > 65535 || image.height > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("TIFF image size must be 1..65535, got ", image.width, "x", image.height));
  }
  const uint64_t data_size = uint64_t{3} * image.width * image.height;
  if (image.pixels.size() != data_size) {
    return absl::InvalidArgumentError(absl::StrCat("TIFF image of ", image.width, "x", image.height,
                                                   " needs ", data_size, " bytes, got ",
                                                   image.pixels.size()));
  }
  if (data_size > (uint64_t{1} << 31)) return absl::InvalidArgumentError("TIFF image too large");
  // Layout: header | pixels | BitsPerSample (3 SHORTs, padded) |
  // XResolution | YResolution | IFD. Every offset is even, as TIFF asks.
  const uint32_t pixels_at = 8;
  uint32_t bits_at = pixels_at + static_cast<uint32_t>(data_size);
  bits_at += bits_at % 2;
  const uint32_t xres_at = bits_at + 8;
  const uint32_t yres_at = xres_at + 8;
  const uint32_t ifd_at = yres_at + 8;

  std::string out = "II";
  PutU16(out, 42);
  PutU32(out, ifd_at);
  out.append(reinterpret_cast<const char*>(image.pixels.data()), image.pixels.size());
  out.resize(bits_at, '\0');
  for (int i = 0; i < 3; ++i) PutU16(out, 8);
  PutU16(out, 0);
  for (int i = 0; i < 2; ++i) {  // 72 / 1 pixels per unit
    PutU32(out, 72);
    PutU32(out, 1);
  }
  // Entries in ascending tag order, as TIFF requires.
  constexpr uint16_t kEntries = 12;
  PutU16(out, kEntries);
  PutEntry(out, 256, kShort, 1, image.width);                      // ImageWidth
  PutEntry(out, 257, kShort, 1, image.height);                     // ImageLength
  PutEntry(out, 258, kShort, 3, bits_at);                          // BitsPerSample 8,8,8
  PutEntry(out, 259, kShort, 1, 1);                                // Compression: none
  PutEntry(out, 262, kShort, 1, 2);                                // PhotometricInterpretation: RGB
  PutEntry(out, 273, kLong, 1, pixels_at);                         // StripOffsets
  PutEntry(out, 277, kShort, 1, 3);                                // SamplesPerPixel
  PutEntry(out, 278, kShort, 1, image.height);                     // RowsPerStrip: one strip
  PutEntry(out, 279, kLong, 1, static_cast<uint32_t>(data_size));  // StripByteCounts
  PutEntry(out, 282, kRational, 1, xres_at);                       // XResolution
  PutEntry(out, 283, kRational, 1, yres_at);                       // YResolution
  PutEntry(out, 284, kShort, 1, 1);                                // PlanarConfiguration: chunky
  PutU32(out, 0);                                                  // no next IFD
  return out;
}

}  // namespace mlebench
