#include "competitions/denoising-dirty-documents/pil_gray_png.h"

#include <filesystem>
#include <sstream>
#include <string>

#include "absl/strings/str_format.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/png_writer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(PilGrayPngTest, ReadsGrayAsIs) {
  PngImage gray{3, 2, PngColor::kGray, {0, 1, 2, 128, 254, 255}};
  absl::StatusOr<std::string> png = EncodePng(gray);
  ASSERT_TRUE(png.ok());
  absl::StatusOr<GrayImage> image = DecodePngAsPilGray(*png, "a.png");
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->width, 3);
  EXPECT_EQ(image->height, 2);
  EXPECT_EQ(image->pixels, gray.pixels);
}

TEST(PilGrayPngTest, RejectsWhatIsNotAReadablePng) {
  EXPECT_THAT(DecodePngAsPilGray("", "e.png").status().message(), HasSubstr("e.png is not a PNG"));
  EXPECT_THAT(DecodePngAsPilGray("GIF89a....", "g.png").status().message(), HasSubstr("not a PNG"));
  absl::StatusOr<std::string> png = EncodePng(PngImage{8, 8, PngColor::kRgb, std::vector<uint8_t>(192, 7)});
  ASSERT_TRUE(png.ok());
  EXPECT_THAT(DecodePngAsPilGray(png->substr(0, png->size() / 2), "t.png").status().message(),
              HasSubstr("cannot decode PNG t.png"));
  std::string corrupt = *png;
  corrupt[corrupt.size() / 2] ^= 0x55;
  EXPECT_FALSE(DecodePngAsPilGray(corrupt, "c.png").ok());
}

// PIL writes PNGs of every layout; its convert("L") must equal ours.
constexpr char kPilScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
from PIL import Image

out = Path(sys.argv[1])
rng = np.random.default_rng(7)
rgb = rng.integers(0, 256, (5, 7, 3), dtype=np.uint8)
images = {
    "gray": Image.fromarray(rgb[:, :, 0], "L"),
    "rgb": Image.fromarray(rgb, "RGB"),
    "rgba": Image.fromarray(np.dstack([rgb, rgb[:, :, :1]]), "RGBA"),
    "la": Image.fromarray(rgb[:, :, :2], "LA"),
    "palette": Image.fromarray(rgb, "RGB").quantize(16),
    "bits1": Image.fromarray(rgb[:, :, 1] > 128),
    "gray_interlaced": Image.fromarray(rgb[:, :, 2], "L"),
}
for name, image in images.items():
    image.save(out / (name + ".png"), interlace=name.endswith("interlaced"))
    print(name, Image.open(out / (name + ".png")).convert("L").tobytes().hex())
Image.fromarray(rgb[:, :, 0].astype(np.uint16) * 257, "I;16").save(out / "deep.png")
)py";

TEST(PilGrayPngTest, MatchesPilConvertL) {
  const fs::path dir = testing::NewTempDir("pil_png");
  testing::CommandResult result = testing::RunPython(kPilScript, {dir.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::istringstream lines(result.output);
  std::string name, hex;
  int checked = 0;
  while (lines >> name >> hex) {
    absl::StatusOr<std::string> bytes = ReadFileToString(dir / (name + ".png"));
    ASSERT_TRUE(bytes.ok());
    absl::StatusOr<GrayImage> image = DecodePngAsPilGray(*bytes, name);
    ASSERT_TRUE(image.ok()) << name << ": " << image.status();
    EXPECT_EQ(image->width, 7) << name;
    EXPECT_EQ(image->height, 5) << name;
    std::string ours;
    for (uint8_t pixel : image->pixels) ours += absl::StrFormat("%02x", pixel);
    EXPECT_EQ(ours, hex) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 7);
  absl::StatusOr<std::string> deep = ReadFileToString(dir / "deep.png");
  ASSERT_TRUE(deep.ok());
  EXPECT_THAT(DecodePngAsPilGray(*deep, "deep.png").status().message(), HasSubstr("16-bit"));
}

}  // namespace
}  // namespace mlebench
