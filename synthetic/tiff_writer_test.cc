#include "synthetic/tiff_writer.h"

#include <filesystem>
#include <string>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

RgbImage RandomImage(int width, int height, uint64_t seed) {
  SyntheticRng rng(seed);
  RgbImage image{width, height, std::vector<uint8_t>(3 * width * height)};
  for (uint8_t& p : image.pixels) p = static_cast<uint8_t>(rng.UniformInt(256));
  return image;
}

// Pillow decodes the file to exactly the pixels written.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
from PIL import Image
path, width, height, pixels = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
im = Image.open(path)
assert im.format == "TIFF" and im.mode == "RGB" and im.size == (width, height), (im.format, im.mode, im.size)
expected = np.frombuffer(open(pixels, "rb").read(), np.uint8).reshape(height, width, 3)
assert (np.asarray(im) == expected).all()
)py";

TEST(TiffWriterTest, PillowReadsThePixelsBack) {
  const std::filesystem::path dir = testing::NewTempDir("tiff");
  int seed = 0;
  for (const auto& [width, height] : {std::pair{1, 1}, {32, 32}, {7, 3}, {96, 96}}) {
    const RgbImage image = RandomImage(width, height, ++seed);
    absl::StatusOr<std::string> tiff = EncodeTiff(image);
    ASSERT_TRUE(tiff.ok()) << tiff.status();
    ASSERT_TRUE(WriteStringToFile(dir / "image.tif", *tiff).ok());
    ASSERT_TRUE(
        WriteStringToFile(dir / "pixels.bin", std::string(image.pixels.begin(), image.pixels.end()))
            .ok());
    const testing::CommandResult result =
        testing::RunPython(kCheckScript, {(dir / "image.tif").string(), std::to_string(width),
                                          std::to_string(height), (dir / "pixels.bin").string()});
    EXPECT_EQ(result.exit_code, 0) << width << "x" << height << "\n" << result.output;
  }
}

TEST(TiffWriterTest, SamePixelsSameBytes) {
  EXPECT_EQ(*EncodeTiff(RandomImage(5, 4, 1)), *EncodeTiff(RandomImage(5, 4, 1)));
  EXPECT_NE(*EncodeTiff(RandomImage(5, 4, 1)), *EncodeTiff(RandomImage(5, 4, 2)));
  // Odd pixel counts are padded so that the tag data stays word-aligned.
  EXPECT_EQ(EncodeTiff(RandomImage(1, 1, 1))->size() % 2, 0u);
}

TEST(TiffWriterTest, RejectsInconsistentImages) {
  EXPECT_FALSE(EncodeTiff(RgbImage{0, 4, {}}).ok());
  EXPECT_FALSE(EncodeTiff(RgbImage{2, 2, std::vector<uint8_t>(11)}).ok());
  EXPECT_FALSE(EncodeTiff(RgbImage{70000, 1, std::vector<uint8_t>(210000)}).ok());
}

}  // namespace
}  // namespace mlebench
