// Synthetic raw download of plant-seedlings-classification, in Kaggle's
// layout: train/<species>/<file>.png for the 12 species (file names of 9
// hex digits, as Kaggle's), test/<file>.png (unlabelled) and
// sample_submission.csv (file, species "Sugar beet"). Species follow
// Kaggle's class frequencies.
//
// Images are 32x32 RGB PNGs of a seedling seen from above on soil: leaves
// radiating from the centre. Each species has its own leaf count, length,
// width and shade of green; size, rotation, light and soil vary per image,
// so shape and colour statistics separate most species but not all.
#include <algorithm>
#include <array>
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
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSize = 32;
constexpr int kNumTrain = 240;
constexpr int kNumTest = 48;

struct Species {
  const char* name;
  double frequency;  // Kaggle's train image count
  int leaves;
  double length;  // leaf length in pixels
  double width;   // leaf half-width in pixels
  std::array<double, 3> rgb;
};

const std::array<Species, 12> kSpecies = {{
    {"Black-grass", 263, 2, 13, 0.9, {60, 110, 50}},
    {"Charlock", 390, 4, 7, 3.5, {70, 150, 60}},
    {"Cleavers", 287, 6, 6, 1.2, {95, 165, 70}},
    {"Common Chickweed", 611, 5, 4, 2.2, {120, 185, 80}},
    {"Common wheat", 221, 1, 14, 1.1, {135, 175, 95}},
    {"Fat Hen", 475, 4, 6, 2.8, {105, 140, 120}},
    {"Loose Silky-bent", 654, 3, 12, 0.7, {140, 165, 70}},
    {"Maize", 221, 2, 12, 2.4, {55, 140, 40}},
    {"Scentless Mayweed", 516, 8, 7, 0.8, {80, 150, 50}},
    {"Shepherds Purse", 231, 6, 5, 1.8, {100, 130, 45}},
    {"Small-flowered Cranesbill", 496, 5, 6, 3.6, {60, 125, 75}},
    {"Sugar beet", 385, 2, 8, 3.8, {120, 125, 60}},
}};

std::vector<uint8_t> DrawSeedling(SyntheticRng& rng, const Species& species) {
  const double light = rng.Uniform(0.8, 1.2);
  const std::array<double, 3> soil = {rng.Uniform(90, 130), rng.Uniform(75, 100),
                                      rng.Uniform(55, 75)};
  std::vector<double> pixels(kSize * kSize * 3);
  for (int i = 0; i < kSize * kSize; ++i) {
    const double grain = rng.Uniform(0.85, 1.15);  // pebbles and grain
    for (int c = 0; c < 3; ++c) pixels[i * 3 + c] = light * grain * soil[c];
  }
  const double scale = rng.Uniform(0.85, 1.15), turn = rng.Uniform(0, 6.2832);
  const double cx = kSize / 2.0 + rng.Uniform(-2, 2), cy = kSize / 2.0 + rng.Uniform(-2, 2);
  std::array<double, 3> leaf;
  for (int c = 0; c < 3; ++c) leaf[c] = light * (species.rgb[c] + rng.Normal(0, 6));
  for (int l = 0; l < species.leaves; ++l) {
    const double angle = turn + 6.2832 * l / species.leaves + rng.Normal(0, 0.15);
    const double length = scale * species.length * rng.Uniform(0.85, 1.1);
    const double width = scale * species.width * rng.Uniform(0.85, 1.15);
    const double ux = std::cos(angle), uy = std::sin(angle);
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) {
        // Along and across the leaf's axis; leaves taper to both ends.
        const double along = (x - cx) * ux + (y - cy) * uy;
        const double across = -(x - cx) * uy + (y - cy) * ux;
        if (along < 0 || along > length) continue;
        const double half = width * std::sin(3.14159 * along / length) + 0.45;
        if (std::abs(across) > half) continue;
        for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = leaf[c];
      }
    }
  }
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 6.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return bytes;
}

absl::Status WriteImage(SyntheticRng& rng, const Species& species, const fs::path& path) {
  ASSIGN_OR_RETURN(std::string png,
                   (EncodePng({kSize, kSize, PngColor::kRgb, DrawSeedling(rng, species)})));
  return WriteStringToFile(path, png);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  SyntheticRng image_rng = rng.Fork(1);
  std::vector<double> frequencies;
  for (const Species& s : kSpecies) frequencies.push_back(s.frequency);
  std::set<std::string> used;
  auto new_file = [&] {
    std::string name = rng.Hex(9) + ".png";
    while (!used.insert(name).second) name = rng.Hex(9) + ".png";
    return name;
  };
  for (const Species& s : kSpecies) fs::create_directories(raw_dir / "train" / s.name);
  for (int i = 0; i < kNumTrain; ++i) {
    const Species& species = kSpecies[rng.Categorical(frequencies)];
    RETURN_IF_ERROR(WriteImage(image_rng, species, raw_dir / "train" / species.name / new_file()));
  }
  fs::create_directories(raw_dir / "test");
  std::vector<std::string> test_files;
  for (int i = 0; i < kNumTest; ++i) {
    test_files.push_back(new_file());
    RETURN_IF_ERROR(WriteImage(image_rng, kSpecies[rng.Categorical(frequencies)],
                               raw_dir / "test" / test_files.back()));
  }
  std::sort(test_files.begin(), test_files.end());  // Kaggle lists them sorted
  CsvTextBuilder sample;
  sample.Row({"file", "species"});
  for (const std::string& file : test_files) sample.String(file).String("Sugar beet").EndRow();
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
