// Synthetic raw download of invasive-species-monitoring, in Kaggle's layout:
// train_labels.csv.zip holding train_labels.csv (name = image number 1..N,
// invasive 0/1), train.7z holding train/<name>.jpg, test.7z holding
// test/<name>.jpg (unlabelled, numbered 1..M as on Kaggle) and
// sample_submission.csv.zip holding sample_submission.csv (name, invasive =
// 0.5). Images are 32x32 RGB JPEGs of green foliage; about three in five
// (Kaggle's rate) also show one to three round, pale blue to violet flower
// heads (the invasive hydrangea), while some others show small white or
// yellow flowers, so colour separates the classes well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kSize = 32;
constexpr int kNumTrain = 400;
constexpr int kNumTest = 100;
constexpr double kInvasiveRate = 0.63;  // 1448 of Kaggle's 2295
constexpr int kJpegQuality = 85;

// Blends `color` into the disc of `radius` around (cx, cy) with weight
// `alpha`.
void PaintDisc(std::vector<double>& pixels, double cx, double cy, double radius,
               const double color[3], double alpha) {
  const int x_lo = std::max(0, static_cast<int>(std::floor(cx - radius)));
  const int x_hi = std::min(kSize - 1, static_cast<int>(std::ceil(cx + radius)));
  const int y_lo = std::max(0, static_cast<int>(std::floor(cy - radius)));
  const int y_hi = std::min(kSize - 1, static_cast<int>(std::ceil(cy + radius)));
  for (int y = y_lo; y <= y_hi; ++y) {
    for (int x = x_lo; x <= x_hi; ++x) {
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > radius * radius) continue;
      double* p = &pixels[(y * kSize + x) * 3];
      for (int c = 0; c < 3; ++c) p[c] = (1 - alpha) * p[c] + alpha * color[c];
    }
  }
}

RgbImage DrawScene(SyntheticRng& rng, bool invasive) {
  std::vector<double> pixels(kSize * kSize * 3);
  // Foliage: a green tone per image, lit differently from image to image.
  const double light = rng.Uniform(70, 150);
  const double base[3] = {light * rng.Uniform(0.45, 0.7), light, light * rng.Uniform(0.3, 0.55)};
  for (int i = 0; i < kSize * kSize; ++i) {
    for (int c = 0; c < 3; ++c) pixels[i * 3 + c] = base[c];
  }
  // Leaves: darker and lighter green patches, in every image.
  const int leaves = static_cast<int>(rng.UniformInt(4, 10));
  for (int i = 0; i < leaves; ++i) {
    const double shade = rng.Uniform(0.6, 1.4);
    const double color[3] = {base[0] * shade, base[1] * shade, base[2] * shade};
    PaintDisc(pixels, rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(1.5, 5), color,
              rng.Uniform(0.4, 0.9));
  }
  if (invasive) {
    const int heads = 1 + static_cast<int>(rng.Categorical({5, 3, 2}));
    for (int i = 0; i < heads; ++i) {
      const double v = rng.Uniform(150, 230);
      const double color[3] = {v * rng.Uniform(0.55, 0.85), v * rng.Uniform(0.55, 0.75), v};
      PaintDisc(pixels, rng.Uniform(4, kSize - 4), rng.Uniform(4, kSize - 4), rng.Uniform(2.5, 5),
                color, rng.Uniform(0.6, 0.95));
    }
  } else if (rng.Bernoulli(0.3)) {
    const int flowers = static_cast<int>(rng.UniformInt(1, 4));
    for (int i = 0; i < flowers; ++i) {
      const double v = rng.Uniform(180, 245);
      const double color[3] = {v, v, v * rng.Uniform(0.4, 1.0)};
      PaintDisc(pixels, rng.Uniform(2, kSize - 2), rng.Uniform(2, kSize - 2), rng.Uniform(1, 2.5),
                color, rng.Uniform(0.6, 0.9));
    }
  }
  RgbImage image{kSize, kSize, std::vector<uint8_t>(pixels.size())};
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 14.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    image.pixels[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return image;
}

// Images numbered 1..count under `folder`/, with their labels.
absl::Status MakeImages(SyntheticRng& rng, int count, const std::string& folder,
                        std::vector<bool>& labels, std::vector<SevenZipEntry>& entries) {
  entries.push_back(SevenZipEntry::Directory(folder));
  for (int name = 1; name <= count; ++name) {
    const bool invasive = rng.Bernoulli(kInvasiveRate);
    ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(DrawScene(rng, invasive), kJpegQuality));
    entries.push_back(SevenZipEntry::FromBytes(absl::StrCat(folder, "/", name, ".jpg"), jpeg));
    labels.push_back(invasive);
  }
  return absl::OkStatus();
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::vector<bool> train_labels, test_labels;
  std::vector<SevenZipEntry> train_entries, test_entries;
  RETURN_IF_ERROR(MakeImages(train_rng, kNumTrain, "train", train_labels, train_entries));
  RETURN_IF_ERROR(MakeImages(test_rng, kNumTest, "test", test_labels, test_entries));
  CsvTextBuilder labels, sample;
  labels.Row({"name", "invasive"});
  for (size_t i = 0; i < train_labels.size(); ++i) {
    labels.Int(static_cast<int64_t>(i + 1)).Int(train_labels[i] ? 1 : 0).EndRow();
  }
  sample.Row({"name", "invasive"});
  for (size_t i = 0; i < test_labels.size(); ++i) {
    sample.Int(static_cast<int64_t>(i + 1)).Float(0.5).EndRow();
  }
  RETURN_IF_ERROR(WriteZip(raw_dir / "train_labels.csv.zip",
                           {ZipEntry::FromBytes("train_labels.csv", labels.text())}));
  RETURN_IF_ERROR(WriteZip(raw_dir / "sample_submission.csv.zip",
                           {ZipEntry::FromBytes("sample_submission.csv", sample.text())}));
  RETURN_IF_ERROR(Write7z(raw_dir / "train.7z", std::move(train_entries)));
  return Write7z(raw_dir / "test.7z", std::move(test_entries));
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
