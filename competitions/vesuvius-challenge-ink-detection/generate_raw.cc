// Synthetic raw download of vesuvius-challenge-ink-detection, in Kaggle's
// layout: train/{1,2,3}/ each holding ir.png (infrared photo), inklabels.png
// (0/255 ink mask), inklabels_rle.csv (Id = the fragment number, Predicted =
// the ink mask run-length encoded along the rows, as Kaggle numbers pixels),
// mask.png (the papyrus area) and surface_volume/00.tif .. 05.tif (the X-ray
// layers). Fragments are small (56 to 90 pixels a side). Ink is a few
// strokes that darken the middle layers, so averaging those layers and
// thresholding finds most of it. Deviation: Kaggle's layers are 16-bit gray
// TIFFs; the project's TIFF writer makes 8-bit RGB ones (gray values).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "grading/metrics/vision/run_length_encoding.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"
#include "synthetic/tiff_writer.h"

namespace mlebench {
namespace {

constexpr int kLayers = 6;

absl::Status WritePng(const std::filesystem::path& path, int width, int height,
                      std::vector<uint8_t> gray) {
  ASSIGN_OR_RETURN(std::string png, (EncodePng(PngImage{width, height, PngColor::kGray, gray})));
  return WriteStringToFile(path, png);
}

absl::Status WriteFragment(const std::filesystem::path& dir, int number, SyntheticRng& rng) {
  const int width = static_cast<int>(rng.UniformInt(56, 90));
  const int height = static_cast<int>(rng.UniformInt(56, 90));
  const int n = width * height;
  std::vector<uint8_t> ink(n, 0);
  const int strokes = static_cast<int>(rng.UniformInt(4, 8));
  for (int s = 0; s < strokes; ++s) {
    const double x0 = rng.Uniform(4, width - 4), y0 = rng.Uniform(4, height - 4);
    const double x1 = x0 + rng.Normal(0, 10), y1 = y0 + rng.Normal(0, 10);
    const double radius = rng.Uniform(1.5, 3.0);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const double dx = x1 - x0, dy = y1 - y0;
        const double t = std::clamp(
            ((x - x0) * dx + (y - y0) * dy) / std::max(dx * dx + dy * dy, 1e-9), 0.0, 1.0);
        const double ex = x - (x0 + t * dx), ey = y - (y0 + t * dy);
        if (ex * ex + ey * ey <= radius * radius) ink[y * width + x] = 1;
      }
    }
  }
  std::filesystem::create_directories(dir / "surface_volume");
  for (int layer = 0; layer < kLayers; ++layer) {
    const bool inked_layer = layer == 2 || layer == 3;
    const double base = rng.Uniform(110, 140);
    RgbImage image{width, height, std::vector<uint8_t>(n * 3)};
    for (int i = 0; i < n; ++i) {
      const double value = base + rng.Normal(0, 12) + (inked_layer && ink[i] ? 40 : 0);
      const uint8_t v = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
      for (int c = 0; c < 3; ++c) image.pixels[i * 3 + c] = v;
    }
    ASSIGN_OR_RETURN(std::string tiff, EncodeTiff(image));
    const std::string name = absl::StrFormat("%02d.tif", layer);
    RETURN_IF_ERROR(WriteStringToFile(dir / "surface_volume" / name, tiff));
  }
  std::vector<uint8_t> labels(n), ir(n), papyrus(n, 255);
  for (int i = 0; i < n; ++i) {
    labels[i] = ink[i] ? 255 : 0;
    ir[i] = static_cast<uint8_t>(
        std::clamp(std::round(rng.Uniform(60, 80) - (ink[i] ? 30 : 0)), 0.0, 255.0));
  }
  RETURN_IF_ERROR(WritePng(dir / "inklabels.png", width, height, labels));
  RETURN_IF_ERROR(WritePng(dir / "ir.png", width, height, ir));
  RETURN_IF_ERROR(WritePng(dir / "mask.png", width, height, papyrus));
  ASSIGN_OR_RETURN(std::string rle, EncodeRle(ink, height, width, PixelOrder::kRowMajor));
  CsvTextBuilder csv;
  csv.Row({"Id", "Predicted"});
  csv.Int(number).String(rle).EndRow();
  return WriteStringToFile(dir / "inklabels_rle.csv", csv.text());
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  for (int number = 1; number <= 3; ++number) {
    SyntheticRng rng = root.Fork(number);
    const std::filesystem::path dir = raw_dir / "train" / absl::StrCat(number);
    std::filesystem::create_directories(dir);
    RETURN_IF_ERROR(WriteFragment(dir, number, rng));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
