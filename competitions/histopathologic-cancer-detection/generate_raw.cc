// Synthetic raw download of histopathologic-cancer-detection:
// train_labels.csv (id = 40 hex digits, label 0/1), train/<id>.tif,
// test/<id>.tif (unlabelled, as on Kaggle) and sample_submission.csv (the
// test ids, label = 0). Images are 32x32 RGB TIFFs of pink tissue dotted with
// purple nuclei; in about two in five, the tumour cases, the central 16x16
// square holds a dense cluster of larger, darker nuclei, so the darkness of
// the centre separates the classes well but not perfectly.
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
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/synthetic.h"
#include "synthetic/tiff_writer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumTrain = 240;
constexpr int kNumTest = 60;
constexpr double kTumourRate = 0.4;  // about Kaggle's share

// Paints a disk of `color` with opacity `alpha` into an RGB float canvas.
void Disk(std::vector<double>& canvas, double cx, double cy, double radius, const double color[3],
          double alpha) {
  for (int y = std::max(0, static_cast<int>(cy - radius));
       y <= std::min(kSize - 1, static_cast<int>(cy + radius + 1)); ++y) {
    for (int x = std::max(0, static_cast<int>(cx - radius));
         x <= std::min(kSize - 1, static_cast<int>(cx + radius + 1)); ++x) {
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > radius * radius) continue;
      double* p = &canvas[(y * kSize + x) * 3];
      for (int c = 0; c < 3; ++c) p[c] = (1 - alpha) * p[c] + alpha * color[c];
    }
  }
}

RgbImage DrawTile(SyntheticRng& rng, bool tumour) {
  std::vector<double> canvas(kSize * kSize * 3);
  // Eosin pink, stained more or less strongly from slide to slide.
  const double stain = rng.Uniform(0.85, 1.1);
  for (int i = 0; i < kSize * kSize; ++i) {
    canvas[i * 3] = 235 * stain;
    canvas[i * 3 + 1] = 175 * stain;
    canvas[i * 3 + 2] = 205 * stain;
  }
  // Ordinary nuclei everywhere.
  const int nuclei = static_cast<int>(rng.UniformInt(4, 14));
  for (int i = 0; i < nuclei; ++i) {
    const double shade = rng.Uniform(0.5, 0.8);
    const double color[3] = {130 * shade, 80 * shade, 170 * shade};
    Disk(canvas, rng.Uniform(0, kSize), rng.Uniform(0, kSize), rng.Uniform(0.8, 1.8), color,
         rng.Uniform(0.5, 0.9));
  }
  if (tumour) {  // crowded, enlarged, dark nuclei in the centre
    const int cells = static_cast<int>(rng.UniformInt(4, 12));
    for (int i = 0; i < cells; ++i) {
      const double shade = rng.Uniform(0.35, 0.6);
      const double color[3] = {120 * shade, 60 * shade, 150 * shade};
      Disk(canvas, rng.Uniform(8, 24), rng.Uniform(8, 24), rng.Uniform(1.5, 3.0), color,
           rng.Uniform(0.6, 0.95));
    }
  }
  RgbImage image{kSize, kSize, std::vector<uint8_t>(canvas.size())};
  for (size_t i = 0; i < canvas.size(); ++i) {
    const double noisy = canvas[i] + 14.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    image.pixels[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return image;
}

// A new 40-hex-digit id with at least two letters among a-d and f, so that
// pandas can never read it as a number.
std::string NewId(SyntheticRng& rng, std::set<std::string>& used) {
  while (true) {
    std::string id = rng.Hex(40);
    if (std::count_if(id.begin(), id.end(), [](char c) { return c >= 'a' && c != 'e'; }) >= 2 &&
        used.insert(id).second) {
      return id;
    }
  }
}

absl::Status WriteTiles(SyntheticRng& rng, std::set<std::string>& used, int count,
                        const fs::path& dir, std::vector<std::string>& ids,
                        std::vector<bool>& labels) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  for (int i = 0; i < count; ++i) {
    ids.push_back(NewId(rng, used));
    labels.push_back(rng.Bernoulli(kTumourRate));
    ASSIGN_OR_RETURN(std::string tiff, EncodeTiff(DrawTile(rng, labels.back())));
    RETURN_IF_ERROR(WriteStringToFile(dir / (ids.back() + ".tif"), tiff));
  }
  return absl::OkStatus();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::set<std::string> used;
  std::vector<std::string> train_ids, test_ids;
  std::vector<bool> train_labels, test_labels;
  RETURN_IF_ERROR(
      WriteTiles(train_rng, used, kNumTrain, raw_dir / "train", train_ids, train_labels));
  RETURN_IF_ERROR(WriteTiles(test_rng, used, kNumTest, raw_dir / "test", test_ids, test_labels));
  CsvTextBuilder labels, sample;
  labels.Row({"id", "label"});
  for (size_t i = 0; i < train_ids.size(); ++i) {
    labels.String(train_ids[i]).Int(train_labels[i] ? 1 : 0).EndRow();
  }
  sample.Row({"id", "label"});
  for (const std::string& id : test_ids) sample.String(id).Int(0).EndRow();
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_labels.csv", labels.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
