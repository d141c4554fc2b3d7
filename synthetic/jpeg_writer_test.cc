#include "synthetic/jpeg_writer.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

// jpeglib.h needs FILE and size_t declared first.
// clang-format off
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
// clang-format on

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

RgbImage Gradient(int width, int height) {
  RgbImage image{width, height, std::vector<uint8_t>(width * height * 3)};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = &image.pixels[(y * width + x) * 3];
      p[0] = static_cast<uint8_t>(x * 255 / std::max(1, width - 1));
      p[1] = static_cast<uint8_t>(y * 255 / std::max(1, height - 1));
      p[2] = 128;
    }
  }
  return image;
}

// Decodes with libjpeg's defaults (valid input only: errors exit the test).
RgbImage Decode(const std::string& jpeg) {
  jpeg_decompress_struct cinfo;
  jpeg_error_mgr errors;
  cinfo.err = jpeg_std_error(&errors);
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(jpeg.data()), jpeg.size());
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_RGB;
  jpeg_start_decompress(&cinfo);
  RgbImage image{static_cast<int>(cinfo.output_width), static_cast<int>(cinfo.output_height), {}};
  image.pixels.resize(image.width * image.height * 3);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = image.pixels.data() + cinfo.output_scanline * image.width * 3;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return image;
}

TEST(EncodeJpegTest, DecodesCloseToTheInput) {
  const RgbImage image = Gradient(32, 32);
  absl::StatusOr<std::string> jpeg = EncodeJpeg(image);
  ASSERT_TRUE(jpeg.ok()) << jpeg.status();
  EXPECT_EQ(jpeg->substr(0, 2), "\xff\xd8");
  EXPECT_EQ(jpeg->substr(jpeg->size() - 2), "\xff\xd9");
  const RgbImage decoded = Decode(*jpeg);
  ASSERT_EQ(decoded.width, 32);
  ASSERT_EQ(decoded.height, 32);
  double total_error = 0;
  for (size_t i = 0; i < image.pixels.size(); ++i) {
    total_error += std::abs(int{image.pixels[i]} - int{decoded.pixels[i]});
  }
  EXPECT_LT(total_error / image.pixels.size(), 4.0);
}

TEST(EncodeJpegTest, SamePixelsSameBytesAndQualityMatters) {
  const RgbImage image = Gradient(17, 9);  // not a multiple of the block size
  absl::StatusOr<std::string> a = EncodeJpeg(image, 85);
  absl::StatusOr<std::string> b = EncodeJpeg(image, 85);
  absl::StatusOr<std::string> c = EncodeJpeg(image, 20);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_NE(*a, *c);
  EXPECT_EQ(Decode(*a).width, 17);
  EXPECT_EQ(Decode(*a).height, 9);
}

TEST(EncodeJpegTest, RejectsBadImagesAndQuality) {
  EXPECT_EQ(EncodeJpeg(RgbImage{}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(RgbImage{4, 4, std::vector<uint8_t>(47)}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(RgbImage{-1, 4, {}}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(Gradient(4, 4), 0).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeJpeg(Gradient(4, 4), 101).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(EncodeJpeg(Gradient(1, 1), 100).ok());
}

TEST(EncodeJpegTest, PillowReadsItAsRgb) {
  absl::StatusOr<std::string> jpeg = EncodeJpeg(Gradient(32, 32));
  ASSERT_TRUE(jpeg.ok());
  const auto path = testing::NewTempDir("jpeg") / "a.jpg";
  ASSERT_TRUE(WriteStringToFile(path, *jpeg).ok());
  testing::CommandResult result = testing::RunPython(R"py(
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.format == "JPEG", im.format
assert im.mode == "RGB", im.mode
assert im.size == (32, 32), im.size
r, g, b = im.getpixel((31, 0))
assert r > 240 and g < 15 and abs(b - 128) < 10, (r, g, b)
)py",
                                                     {path.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

}  // namespace
}  // namespace mlebench
