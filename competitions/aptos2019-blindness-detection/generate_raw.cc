// Synthetic raw download of aptos2019-blindness-detection, in Kaggle's
// layout: train.csv (id_code: 12 lowercase hex digits; diagnosis 0-4),
// train_images/<id_code>.png for every train row, test.csv (id_code) with
// test_images/<id_code>.png, and sample_submission.csv (id_code, diagnosis
// 0). Grades follow Kaggle's class frequencies.
//
// Images are 32x32 RGB PNGs of a retina: an orange disc on black, with a
// pale optic disc. The grade shows as lesions: the higher the grade, the
// more small yellow (exudate) and dark red (haemorrhage) spots, with enough
// spread in count, size and light that neighbouring grades overlap.
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
constexpr int kNumTrain = 300;
constexpr int kNumTest = 60;

// Kaggle's train.csv counts of grades 0-4.
const std::vector<double> kGradeFrequencies = {1805, 370, 999, 193, 295};

void Spot(std::vector<double>& pixels, double cx, double cy, double radius,
          const std::array<double, 3>& rgb) {
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double dx = x - cx, dy = y - cy;
      if (dx * dx + dy * dy > radius * radius) continue;
      for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = rgb[c];
    }
  }
}

std::vector<uint8_t> DrawRetina(SyntheticRng& rng, int64_t grade) {
  const double light = rng.Uniform(0.8, 1.15);
  const std::array<double, 3> fundus = {light * rng.Uniform(180, 220), light * rng.Uniform(80, 110),
                                        light * rng.Uniform(30, 60)};
  std::vector<double> pixels(kSize * kSize * 3, 0.0);
  const double center = (kSize - 1) / 2.0, radius = kSize / 2.0 - 1;
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double r = std::hypot(x - center, y - center) / radius;
      if (r > 1) continue;
      const double shade = 1.0 - 0.35 * r * r;  // darker towards the rim
      for (int c = 0; c < 3; ++c) pixels[(y * kSize + x) * 3 + c] = shade * fundus[c];
    }
  }
  const double side = rng.Uniform() < 0.5 ? -1 : 1;  // left or right eye
  Spot(pixels, center + side * rng.Uniform(6, 9), center + rng.Uniform(-2, 2),
       rng.Uniform(2.0, 3.0), {light * 245, light * 215, light * 160});
  // Lesions inside the disc: about 2.5 per grade step, Poisson-like spread.
  const int lesions = static_cast<int>(
      std::max<int64_t>(0, std::llround(rng.Normal(2.5 * grade, 0.8 + 0.4 * grade))));
  for (int i = 0; i < lesions; ++i) {
    const double angle = rng.Uniform(0, 6.2832), dist = rng.Uniform(0, radius - 3);
    const bool exudate = rng.Uniform() < 0.5;
    Spot(pixels, center + dist * std::cos(angle), center + dist * std::sin(angle),
         rng.Uniform(0.6, 1.4),
         exudate ? std::array<double, 3>{light * 240, light * 225, light * 70}
                 : std::array<double, 3>{light * 110, light * 15, light * 15});
  }
  std::vector<uint8_t> bytes(pixels.size());
  for (size_t i = 0; i < pixels.size(); ++i) {
    const double noisy = pixels[i] + 10.0 * (rng.Uniform() + rng.Uniform() - 1.0);
    bytes[i] = static_cast<uint8_t>(std::clamp(std::round(noisy), 0.0, 255.0));
  }
  return bytes;
}

absl::Status WriteImage(SyntheticRng& rng, int64_t grade, const fs::path& path) {
  ASSIGN_OR_RETURN(std::string png,
                   (EncodePng({kSize, kSize, PngColor::kRgb, DrawRetina(rng, grade)})));
  return WriteStringToFile(path, png);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  SyntheticRng image_rng = rng.Fork(1);
  // Distinct ids; Kaggle's files list them in no particular order.
  std::set<std::string> used;
  auto new_id = [&] {
    std::string id = rng.Hex(12);
    while (!used.insert(id).second) id = rng.Hex(12);
    return id;
  };
  fs::create_directories(raw_dir / "train_images");
  fs::create_directories(raw_dir / "test_images");
  CsvTextBuilder train_csv, test_csv, sample_csv;
  train_csv.Row({"id_code", "diagnosis"});
  test_csv.Row({"id_code"});
  sample_csv.Row({"id_code", "diagnosis"});
  for (int i = 0; i < kNumTrain; ++i) {
    const std::string id = new_id();
    const auto grade = static_cast<int64_t>(rng.Categorical(kGradeFrequencies));
    train_csv.String(id).Int(grade).EndRow();
    RETURN_IF_ERROR(WriteImage(image_rng, grade, raw_dir / "train_images" / (id + ".png")));
  }
  for (int i = 0; i < kNumTest; ++i) {
    const std::string id = new_id();
    const auto grade = static_cast<int64_t>(rng.Categorical(kGradeFrequencies));
    test_csv.String(id).EndRow();
    sample_csv.String(id).Int(0).EndRow();
    RETURN_IF_ERROR(WriteImage(image_rng, grade, raw_dir / "test_images" / (id + ".png")));
  }
  for (const auto& [name, csv] :
       {std::pair{"train.csv", &train_csv}, std::pair{"test.csv", &test_csv},
        std::pair{"sample_submission.csv", &sample_csv}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, csv->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
