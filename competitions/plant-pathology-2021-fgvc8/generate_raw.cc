// Synthetic raw download of plant-pathology-2021-fgvc8, in the Kaggle layout
// that upstream's prepare.py reads: train.csv (image "<16 hex digits>.jpg",
// labels: space-separated disease names, or "healthy") and
// train_images/<image>. Kaggle's download also holds test_images/ and
// sample_submission.csv, which upstream never reads; they are left out.
//
// The labels follow Kaggle's twelve combinations and their rough
// frequencies. Images are 32x32 RGB JPEGs of an apple leaf (a green ellipse)
// on a dark background under varying light; each disease leaves its own
// mark: scab dark olive blotches, rust small orange spots, frog_eye_leaf_spot
// pale grey spots, powdery_mildew a whitish film over the leaf, complex a
// broad yellow-brown patch. Lesion counts and sizes vary, so colour
// statistics separate the labels well but not perfectly.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
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

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumImages = 400;
constexpr int kJpegQuality = 85;

// Kaggle's label combinations with (roughly) their counts in its train.csv.
const std::vector<std::string> kLabelSets = {"scab",
                                             "healthy",
                                             "frog_eye_leaf_spot",
                                             "rust",
                                             "complex",
                                             "powdery_mildew",
                                             "scab frog_eye_leaf_spot",
                                             "scab frog_eye_leaf_spot complex",
                                             "frog_eye_leaf_spot complex",
                                             "rust frog_eye_leaf_spot",
                                             "rust complex",
                                             "powdery_mildew complex"};
const std::vector<double> kLabelSetWeights = {4826, 4624, 3181, 1860, 1602, 1184,
                                              686,  200,  165,  120,  97,   87};

using Rgb = std::array<double, 3>;

struct Leaf {
  std::vector<Rgb> pixels = std::vector<Rgb>(kSize * kSize);
  std::vector<bool> on_leaf = std::vector<bool>(kSize * kSize);

  // Paints the ellipse at (cx, cy) with radii (rx, ry), on the leaf only
  // when `leaf_only`; `blend` mixes the colour into what is there.
  void Ellipse(double cx, double cy, double rx, double ry, const Rgb& color, bool leaf_only,
               double blend = 1.0) {
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double ex = (x - cx) / rx, ey = (y - cy) / ry;
        const int i = y * kSize + x;
        if (ex * ex + ey * ey > 1 || (leaf_only && !on_leaf[i])) continue;
        for (int c = 0; c < 3; ++c) pixels[i][c] = (1 - blend) * pixels[i][c] + blend * color[c];
      }
    }
  }
};

std::vector<uint8_t> DrawLeaf(SyntheticRng& rng, const std::string& labels) {
  Leaf leaf;
  const Rgb background = {rng.Uniform(20, 60), rng.Uniform(25, 60), rng.Uniform(15, 45)};
  std::fill(leaf.pixels.begin(), leaf.pixels.end(), background);
  const double cx = 16 + rng.Normal(0, 1.5), cy = 16 + rng.Normal(0, 1.5);
  const double rx = rng.Uniform(9, 13), ry = rng.Uniform(13, 16);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double ex = (x - cx) / rx, ey = (y - cy) / ry;
      leaf.on_leaf[y * kSize + x] = ex * ex + ey * ey <= 1;
    }
  }
  leaf.Ellipse(cx, cy, rx, ry, {rng.Uniform(60, 95), rng.Uniform(130, 170), rng.Uniform(40, 70)},
               false);
  const std::string padded = " " + labels + " ";
  const auto has = [&](std::string_view label) {
    return padded.find(absl::StrCat(" ", std::string(label), " ")) != std::string::npos;
  };
  if (has("complex")) {
    leaf.Ellipse(rng.Uniform(10, 22), rng.Uniform(8, 24), rng.Uniform(5, 8), rng.Uniform(5, 8),
                 {rng.Uniform(150, 180), rng.Uniform(120, 150), rng.Uniform(40, 60)}, true, 0.8);
  }
  if (has("powdery_mildew")) {
    leaf.Ellipse(cx, cy, rx, ry, {215, 220, 210}, true, rng.Uniform(0.35, 0.55));
  }
  if (has("scab")) {
    for (int i = static_cast<int>(rng.UniformInt(1, 3)); i > 0; --i) {
      leaf.Ellipse(rng.Uniform(8, 24), rng.Uniform(6, 26), rng.Uniform(2, 4.5), rng.Uniform(2, 4.5),
                   {rng.Uniform(55, 75), rng.Uniform(55, 70), rng.Uniform(25, 40)}, true);
    }
  }
  if (has("frog_eye_leaf_spot")) {
    for (int i = static_cast<int>(rng.UniformInt(2, 5)); i > 0; --i) {
      const double r = rng.Uniform(1.2, 2.2);
      leaf.Ellipse(rng.Uniform(8, 24), rng.Uniform(6, 26), r, r,
                   {rng.Uniform(170, 200), rng.Uniform(165, 190), rng.Uniform(160, 185)}, true);
    }
  }
  if (has("rust")) {
    for (int i = static_cast<int>(rng.UniformInt(2, 6)); i > 0; --i) {
      const double r = rng.Uniform(1.0, 2.2);
      leaf.Ellipse(rng.Uniform(8, 24), rng.Uniform(6, 26), r, r,
                   {rng.Uniform(215, 250), rng.Uniform(110, 150), rng.Uniform(20, 50)}, true);
    }
  }
  const double light = rng.Uniform(0.8, 1.1);
  std::vector<uint8_t> bytes(leaf.pixels.size() * 3);
  for (size_t i = 0; i < leaf.pixels.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const double v = light * leaf.pixels[i][c] + 14.0 * (rng.Uniform() + rng.Uniform() - 1.0);
      bytes[i * 3 + c] = static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
    }
  }
  return bytes;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train_images");
  CsvTextBuilder csv;
  csv.Row({"image", "labels"});
  for (int i = 0; i < kNumImages; ++i) {
    const std::string image = rng.Hex(16) + ".jpg";
    const std::string& labels = kLabelSets[rng.Categorical(kLabelSetWeights)];
    csv.Row({image, labels});
    ASSIGN_OR_RETURN(std::string jpeg,
                     (EncodeJpeg({kSize, kSize, DrawLeaf(rng, labels)}, kJpegQuality)));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_images" / image, jpeg));
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
