// Synthetic raw download of paddy-disease-classification, in Kaggle's
// layout: train.csv (image_id "<6 digits>.jpg", label, variety, age),
// train_images/<label>/<image_id> for every train row, test_images/<id>.jpg
// (unlabelled, ids from 200001 as on Kaggle) and sample_submission.csv
// (image_id, an empty label; rows in a seed-dependent order). Labels follow Kaggle's class frequencies;
// train.csv lists rows grouped by label, as Kaggle's does.
//
// Images are 32x32 RGB JPEGs of green rice leaves (vertical blades under
// varying light). Each disease shows as its own colour: small lesions of a
// class colour, or (dead_heart, tungro) a tint of the whole leaf; "normal"
// leaves have neither. Lesion count, size and light vary, so colour
// statistics separate the classes well but not perfectly. Age carries a weak
// signal too (dead_heart and tungro plants are older on average).
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
constexpr int kNumTrain = 480;
constexpr int kNumTest = 120;
constexpr int kJpegQuality = 85;

struct Disease {
  const char* label;
  double frequency;           // Kaggle's train.csv count
  std::array<double, 3> rgb;  // lesion colour, or the leaf's tint
  bool tints_leaf;
};

// In label order (train.csv's grouping).
const std::array<Disease, 10> kDiseases = {{
    {"bacterial_leaf_blight", 479, {235, 225, 120}, false},
    {"bacterial_leaf_streak", 380, {205, 130, 50}, false},
    {"bacterial_panicle_blight", 337, {185, 160, 125}, false},
    {"blast", 1738, {140, 140, 150}, false},
    {"brown_spot", 965, {105, 55, 25}, false},
    {"dead_heart", 1442, {150, 120, 60}, true},
    {"downy_mildew", 620, {240, 240, 235}, false},
    {"hispa", 1594, {60, 30, 70}, false},
    {"normal", 1764, {0, 0, 0}, false},
    {"tungro", 1088, {210, 190, 40}, true},
}};
constexpr size_t kNormal = 8;

const std::array<const char*, 10> kVarieties = {
    "ADT45", "KarnatakaPonni", "Ponni", "AtchayaPonni", "Zonal",
    "AndraPonni", "Onthanel", "IR20", "RR", "Surya"};
const std::vector<double> kVarietyWeights = {69, 9, 6, 5, 4, 3, 2, 1, 0.5, 0.5};

std::vector<uint8_t> DrawLeaf(SyntheticRng& rng, size_t disease) {
  const Disease& d = kDiseases[disease];
  const double light = rng.Uniform(0.75, 1.15);
  std::array<double, 3> leaf = {rng.Uniform(50, 80), rng.Uniform(120, 160), rng.Uniform(40, 70)};
  if (d.tints_leaf) {
    const double mix = rng.Uniform(0.45, 0.8);
    for (int c = 0; c < 3; ++c) leaf[c] = (1 - mix) * leaf[c] + mix * d.rgb[c];
  }
  std::vector<double> pixels(kSize * kSize * 3);
  // Vertical blades: brightness varies across x.
  const double phase = rng.Uniform(0, 6.3), period = rng.Uniform(4, 9);
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double shade = light * (0.85 + 0.15 * std::sin(phase + 6.283 * x / period));
      for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = shade * leaf[c];
    }
  }
  if (!d.tints_leaf && disease != kNormal) {
    const int lesions = static_cast<int>(rng.UniformInt(2, 6));
    for (int i = 0; i < lesions; ++i) {
      const double cx = rng.Uniform(0, kSize), cy = rng.Uniform(0, kSize);
      const double rx = rng.Uniform(1.0, 2.5), ry = rx * rng.Uniform(1.0, 2.5);
      for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) {
          const double ex = (x - cx) / rx, ey = (y - cy) / ry;
          if (ex * ex + ey * ey > 1) continue;
          for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = light * d.rgb[c];
        }
      }
    }
  }
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 14.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return bytes;
}

absl::Status WriteImage(SyntheticRng& rng, size_t disease, const fs::path& path) {
  ASSIGN_OR_RETURN(std::string jpeg,
                   (EncodeJpeg({kSize, kSize, DrawLeaf(rng, disease)}, kJpegQuality)));
  return WriteStringToFile(path, jpeg);
}

struct Plant {
  std::string image_id;
  size_t disease;
  size_t variety;
  int64_t age;
};

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  // Which image has which label is fixed (drawn from a constant seed), so
  // that every seed writes the same file names (train_images/<label>/<id>);
  // the seed draws the pixels, varieties and ages.
  SyntheticRng layout_rng(0x9addd15ea5e);
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  std::vector<double> frequencies;
  for (const Disease& d : kDiseases) frequencies.push_back(d.frequency);

  // Ids: distinct, shuffled numbers from 100000, as Kaggle's are.
  std::vector<int> numbers(kNumTrain);
  for (int i = 0; i < kNumTrain; ++i) numbers[i] = 100000 + i;
  layout_rng.Shuffle(numbers);
  std::vector<Plant> plants;
  for (int i = 0; i < kNumTrain; ++i) {
    plants.push_back({absl::StrCat(numbers[i], ".jpg"), layout_rng.Categorical(frequencies), 0, 0});
  }
  std::stable_sort(plants.begin(), plants.end(),
                   [](const Plant& a, const Plant& b) { return a.disease < b.disease; });
  for (Plant& p : plants) {
    const bool old = p.disease == 5 || p.disease == 9;
    p.variety = train_rng.Categorical(kVarietyWeights);
    p.age = std::clamp<int64_t>(std::llround(train_rng.Normal(old ? 70 : 62, 8)), 45, 82);
  }

  CsvTextBuilder train_csv, sample_csv;
  train_csv.Row({"image_id", "label", "variety", "age"});
  for (const Disease& d : kDiseases) {
    fs::create_directories(raw_dir / "train_images" / d.label);
  }
  for (const Plant& p : plants) {
    const char* label = kDiseases[p.disease].label;
    train_csv.String(p.image_id).String(label).String(kVarieties[p.variety]).Int(p.age).EndRow();
    RETURN_IF_ERROR(
        WriteImage(train_rng, p.disease, raw_dir / "train_images" / label / p.image_id));
  }
  fs::create_directories(raw_dir / "test_images");
  // Kaggle lists the test ids in order; here their order depends on the
  // seed, so that this file too changes with it (nothing reads the order:
  // upstream only checks this file's columns).
  std::vector<std::string> test_ids;
  for (int i = 1; i <= kNumTest; ++i) test_ids.push_back(absl::StrCat(200000 + i, ".jpg"));
  for (const std::string& id : test_ids) {
    RETURN_IF_ERROR(
        WriteImage(test_rng, test_rng.Categorical(frequencies), raw_dir / "test_images" / id));
  }
  test_rng.Shuffle(test_ids);
  sample_csv.Row({"image_id", "label"});
  for (const std::string& id : test_ids) sample_csv.String(id).Missing().EndRow();
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train_csv.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample_csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
