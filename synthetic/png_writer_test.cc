#include "synthetic/png_writer.h"

#include <png.h>

#include <cstring>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

PngImage Pattern(int width, int height, PngColor color) {
  const int channels = static_cast<int>(color);
  PngImage image{width, height, color, std::vector<uint8_t>(width * height * channels)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c) {
        // Mixed smooth and noisy values so several PNG filters get used.
        image.pixels[(y * width + x) * channels + c] =
            static_cast<uint8_t>((x * 7 + y * 13 + c * 50 + (x * y * 31) % 17) & 0xff);
      }
    }
  }
  return image;
}

// Decodes with libpng's simplified API into the same layout as `color`.
struct Decoded {
  bool ok = false;
  int width = 0;
  int height = 0;
  png_uint_32 format = 0;  // the file's own format flags
  std::vector<uint8_t> pixels;
};

Decoded Decode(const std::string& bytes, PngColor color) {
  Decoded decoded;
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size())) return decoded;
  decoded.format = image.format;
  image.format = color == PngColor::kGray ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
  decoded.pixels.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, decoded.pixels.data(), 0, nullptr)) {
    return decoded;
  }
  decoded.ok = true;
  decoded.width = static_cast<int>(image.width);
  decoded.height = static_cast<int>(image.height);
  return decoded;
}

TEST(EncodePngTest, RgbRoundTripsExactly) {
  const PngImage image = Pattern(33, 17, PngColor::kRgb);
  absl::StatusOr<std::string> png = EncodePng(image);
  ASSERT_TRUE(png.ok()) << png.status();
  EXPECT_EQ(png->substr(0, 8), "\x89PNG\r\n\x1a\n");
  const Decoded decoded = Decode(*png, PngColor::kRgb);
  ASSERT_TRUE(decoded.ok);
  EXPECT_EQ(decoded.width, 33);
  EXPECT_EQ(decoded.height, 17);
  EXPECT_EQ(decoded.format, static_cast<png_uint_32>(PNG_FORMAT_RGB));
  EXPECT_EQ(decoded.pixels, image.pixels);
}

TEST(EncodePngTest, GrayRoundTripsExactly) {
  const PngImage image = Pattern(8, 5, PngColor::kGray);
  absl::StatusOr<std::string> png = EncodePng(image);
  ASSERT_TRUE(png.ok()) << png.status();
  const Decoded decoded = Decode(*png, PngColor::kGray);
  ASSERT_TRUE(decoded.ok);
  EXPECT_EQ(decoded.format, static_cast<png_uint_32>(PNG_FORMAT_GRAY));
  EXPECT_EQ(decoded.pixels, image.pixels);
}

TEST(EncodePngTest, SamePixelsSameBytesOtherPixelsOtherBytes) {
  PngImage image = Pattern(16, 16, PngColor::kRgb);
  absl::StatusOr<std::string> a = EncodePng(image);
  absl::StatusOr<std::string> b = EncodePng(image);
  image.pixels[5] ^= 1;
  absl::StatusOr<std::string> c = EncodePng(image);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
}

TEST(EncodePngTest, HoldsOnlyImageChunks) {
  absl::StatusOr<std::string> png = EncodePng(Pattern(4, 4, PngColor::kGray));
  ASSERT_TRUE(png.ok());
  std::vector<std::string> chunks;
  for (size_t at = 8; at + 8 <= png->size();) {
    const auto byte = [&](size_t i) { return static_cast<uint32_t>(uint8_t((*png)[i])); };
    const uint32_t length = byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 | byte(at + 3);
    chunks.push_back(png->substr(at + 4, 4));
    at += 12 + length;
  }
  EXPECT_EQ(chunks.front(), "IHDR");
  EXPECT_EQ(chunks.back(), "IEND");
  for (const std::string& chunk : chunks) {
    EXPECT_TRUE(chunk == "IHDR" || chunk == "IDAT" || chunk == "IEND") << chunk;
  }
}

TEST(EncodePngTest, RejectsBadImages) {
  EXPECT_EQ(EncodePng(PngImage{}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(PngImage{4, 4, PngColor::kRgb, std::vector<uint8_t>(16)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(PngImage{4, 4, PngColor::kGray, std::vector<uint8_t>(48)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(PngImage{-1, 4, PngColor::kGray, {}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(PngImage{1, 1, static_cast<PngColor>(2), {0, 0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(EncodePng(PngImage{1, 1, PngColor::kGray, {7}}).ok());
}

TEST(EncodePngTest, PillowReadsTheModesAndPixels) {
  const auto dir = testing::NewTempDir("png");
  absl::StatusOr<std::string> rgb = EncodePng(Pattern(32, 16, PngColor::kRgb));
  absl::StatusOr<std::string> gray = EncodePng(Pattern(32, 16, PngColor::kGray));
  ASSERT_TRUE(rgb.ok() && gray.ok());
  ASSERT_TRUE(WriteStringToFile(dir / "rgb.png", *rgb).ok());
  ASSERT_TRUE(WriteStringToFile(dir / "gray.png", *gray).ok());
  testing::CommandResult result =
      testing::RunPython(R"py(
import sys
from PIL import Image
def expected(x, y, c):
    return (x * 7 + y * 13 + c * 50 + (x * y * 31) % 17) & 0xff
rgb = Image.open(sys.argv[1])
assert (rgb.format, rgb.mode, rgb.size) == ("PNG", "RGB", (32, 16)), (rgb.format, rgb.mode, rgb.size)
assert rgb.getpixel((31, 15)) == tuple(expected(31, 15, c) for c in range(3)), rgb.getpixel((31, 15))
gray = Image.open(sys.argv[2])
assert (gray.format, gray.mode, gray.size) == ("PNG", "L", (32, 16)), (gray.mode, gray.size)
assert gray.getpixel((5, 9)) == expected(5, 9, 0), gray.getpixel((5, 9))
)py",
                         {(dir / "rgb.png").string(), (dir / "gray.png").string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

}  // namespace
}  // namespace mlebench
