// Synthetic raw download of plant-pathology-2020-fgvc7, in the Kaggle layout
// that upstream's prepare.py reads: train.csv (image_id "Train_<i>" in
// order, then one 0/1 column per class: healthy, multiple_diseases, rust,
// scab, exactly one of them 1) and images/Train_<i>.jpg. Kaggle's download
// also holds test.csv, sample_submission.csv and images/Test_<i>.jpg, which
// upstream never reads; they are left out because their names and contents
// would not depend on the seed.
//
// Images are 32x32 RGB JPEGs of an apple leaf (a green ellipse with a
// midrib) on a dark background, under varying light. Rust shows as small
// bright orange spots, scab as larger dark olive-brown blotches, "multiple
// diseases" as both, healthy leaves as neither; the number and size of the
// lesions vary, so colour statistics separate the classes well but not
// perfectly. multiple_diseases is rarer than the others (15% against
// Kaggle's 5%, so that a 10% test split still holds some).
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
constexpr int kNumImages = 600;
constexpr int kJpegQuality = 85;

enum Condition { kHealthy = 0, kMultiple = 1, kRust = 2, kScab = 3 };
const std::vector<double> kConditionWeights = {30, 15, 30, 25};

using Rgb = std::array<double, 3>;

class Canvas {
 public:
  Canvas() : pixels_(kSize * kSize) {}
  // Paints the ellipse centred at (cx, cy) with radii (rx, ry), where `mask`
  // (if given) is set.
  void Ellipse(double cx, double cy, double rx, double ry, const Rgb& color,
               const std::vector<bool>* mask = nullptr) {
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        const double ex = (x - cx) / rx, ey = (y - cy) / ry;
        if (ex * ex + ey * ey > 1 || (mask != nullptr && !(*mask)[y * kSize + x])) continue;
        pixels_[y * kSize + x] = color;
      }
    }
  }
  std::vector<bool> Where(const Rgb& color) const {
    std::vector<bool> mask(pixels_.size());
    for (size_t i = 0; i < pixels_.size(); ++i) mask[i] = pixels_[i] == color;
    return mask;
  }
  std::vector<uint8_t> ToBytes(SyntheticRng& rng, double light, double noise) const {
    std::vector<uint8_t> bytes(pixels_.size() * 3);
    for (size_t i = 0; i < pixels_.size(); ++i) {
      for (int c = 0; c < 3; ++c) {
        const double v = light * pixels_[i][c] + noise * (rng.Uniform() + rng.Uniform() - 1.0);
        bytes[i * 3 + c] = static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0));
      }
    }
    return bytes;
  }

 private:
  std::vector<Rgb> pixels_;
};

std::vector<uint8_t> DrawLeaf(SyntheticRng& rng, Condition condition) {
  Canvas canvas;
  const Rgb background = {rng.Uniform(20, 60), rng.Uniform(25, 60), rng.Uniform(15, 45)};
  canvas.Ellipse(16, 16, 100, 100, background);
  const Rgb leaf = {rng.Uniform(60, 95), rng.Uniform(130, 170), rng.Uniform(40, 70)};
  canvas.Ellipse(16 + rng.Normal(0, 1.5), 16 + rng.Normal(0, 1.5), rng.Uniform(9, 13),
                 rng.Uniform(13, 16), leaf);
  const std::vector<bool> on_leaf = canvas.Where(leaf);
  const Rgb rib = {leaf[0] * 1.25, leaf[1] * 1.15, leaf[2] * 1.2};
  canvas.Ellipse(16, 16, 0.8, 14, rib, &on_leaf);
  if (condition == kScab || condition == kMultiple) {
    const int blotches = static_cast<int>(rng.UniformInt(1, 3));
    for (int i = 0; i < blotches; ++i) {
      const Rgb scab = {rng.Uniform(70, 95), rng.Uniform(65, 85), rng.Uniform(30, 45)};
      canvas.Ellipse(rng.Uniform(8, 24), rng.Uniform(6, 26), rng.Uniform(2, 4.5),
                     rng.Uniform(2, 4.5), scab, &on_leaf);
    }
  }
  if (condition == kRust || condition == kMultiple) {
    const int spots = static_cast<int>(rng.UniformInt(2, 6));
    for (int i = 0; i < spots; ++i) {
      const Rgb rust = {rng.Uniform(215, 250), rng.Uniform(120, 165), rng.Uniform(20, 50)};
      const double r = rng.Uniform(1.0, 2.2);
      canvas.Ellipse(rng.Uniform(8, 24), rng.Uniform(6, 26), r, r, rust, &on_leaf);
    }
  }
  return canvas.ToBytes(rng, rng.Uniform(0.8, 1.1), 14.0);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "images");
  CsvTextBuilder csv;
  csv.Row({"image_id", "healthy", "multiple_diseases", "rust", "scab"});
  for (int i = 0; i < kNumImages; ++i) {
    const std::string id = absl::StrCat("Train_", i);
    const auto condition = static_cast<Condition>(rng.Categorical(kConditionWeights));
    csv.String(id);
    for (int c = kHealthy; c <= kScab; ++c) csv.Int(c == condition ? 1 : 0);
    csv.EndRow();
    ASSIGN_OR_RETURN(std::string jpeg,
                     (EncodeJpeg({kSize, kSize, DrawLeaf(rng, condition)}, kJpegQuality)));
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "images" / (id + ".jpg"), jpeg));
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
