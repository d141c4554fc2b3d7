// Synthetic raw download of denoising-dirty-documents as upstream's
// prepare.py reads it: train.zip (train/<n>.png, noisy scans),
// train_cleaned.zip (train_cleaned/<n>.png, the same pages clean), test.zip
// (test/<n>.png) and sampleSubmission.csv (id "<n>_<row>_<col>", value 1),
// with Kaggle's numeric file names. Pages are 32x20 8-bit gray PNGs: dark
// glyph blocks on text lines over white paper; the noisy copy adds a smooth
// coffee stain, a paper tint and pixel noise, so a per-pixel threshold
// already recovers most of the clean page.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kWidth = 32;
constexpr int kHeight = 20;
constexpr int kNumTrain = 30;
constexpr int kNumTest = 6;

PngImage Blank() { return PngImage{kWidth, kHeight, PngColor::kGray, std::vector<uint8_t>(kWidth * kHeight, 255)}; }

PngImage CleanPage(SyntheticRng& rng) {
  PngImage page = Blank();
  for (int top = 2; top + 4 <= kHeight; top += 6) {
    for (int x = 1; x < kWidth - 2;) {
      const int glyph = static_cast<int>(rng.UniformInt(1, 3));
      const uint8_t ink = static_cast<uint8_t>(rng.UniformInt(0, 60));
      for (int y = top; y < top + 4; ++y) {
        for (int dx = 0; dx < glyph && x + dx < kWidth; ++dx) {
          if (rng.Bernoulli(0.8)) page.pixels[y * kWidth + x + dx] = ink;
        }
      }
      x += glyph + static_cast<int>(rng.UniformInt(1, 2));
    }
  }
  return page;
}

PngImage Dirty(SyntheticRng& rng, const PngImage& clean) {
  PngImage page = clean;
  const double tint = rng.Uniform(10, 40);
  const double cx = rng.Uniform(0, kWidth), cy = rng.Uniform(0, kHeight);
  const double radius = rng.Uniform(5, 12), depth = rng.Uniform(30, 80);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const double d2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (radius * radius);
      const double stain = depth * std::exp(-d2);
      uint8_t& pixel = page.pixels[y * kWidth + x];
      const double value = pixel == 255 ? 255 - tint - stain + rng.Normal(0, 10)
                                        : pixel + 0.3 * stain + rng.Normal(0, 10);
      pixel = static_cast<uint8_t>(std::clamp(std::round(value), 0.0, 255.0));
    }
  }
  return page;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  // Distinct page numbers, as Kaggle's 1..216 with gaps.
  std::set<int> used;
  std::vector<int> numbers;
  while (static_cast<int>(numbers.size()) < kNumTrain + kNumTest) {
    const int n = static_cast<int>(rng.UniformInt(1, 216));
    if (used.insert(n).second) numbers.push_back(n);
  }
  std::vector<ZipEntry> train = {ZipEntry::Directory("train/")};
  std::vector<ZipEntry> cleaned = {ZipEntry::Directory("train_cleaned/")};
  std::vector<ZipEntry> test = {ZipEntry::Directory("test/")};
  CsvTextBuilder sample;
  sample.Row({"id", "value"});
  for (int i = 0; i < kNumTrain + kNumTest; ++i) {
    const PngImage clean = CleanPage(rng);
    ASSIGN_OR_RETURN(std::string dirty_png, EncodePng(Dirty(rng, clean)));
    const std::string name = absl::StrCat(numbers[i], ".png");
    if (i < kNumTrain) {
      ASSIGN_OR_RETURN(std::string clean_png, EncodePng(clean));
      train.push_back(ZipEntry::FromBytes("train/" + name, dirty_png));
      cleaned.push_back(ZipEntry::FromBytes("train_cleaned/" + name, clean_png));
    } else {
      test.push_back(ZipEntry::FromBytes("test/" + name, dirty_png));
      for (int y = 1; y <= kHeight; ++y) {
        for (int x = 1; x <= kWidth; ++x) sample.String(absl::StrCat(numbers[i], "_", y, "_", x)).Int(1).EndRow();
      }
    }
  }
  RETURN_IF_ERROR(WriteZip(raw_dir / "train.zip", train));
  RETURN_IF_ERROR(WriteZip(raw_dir / "train_cleaned.zip", cleaned));
  RETURN_IF_ERROR(WriteZip(raw_dir / "test.zip", test));
  return WriteStringToFile(raw_dir / "sampleSubmission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
