// Synthetic raw download of statoil-iceberg-classifier-challenge:
// train.json.7z and test.json.7z holding data/processed/train.json and
// data/processed/test.json (JSON lists of samples: "id" = 8 hex digits,
// "band_1" and "band_2" = flattened square radar images in dB, "inc_angle" =
// the incidence angle or, for a few train samples, "na", and in train
// "is_iceberg" 0/1), and sample_submission.csv.7z (the test ids with
// is_iceberg = 0.5), as on Kaggle. Images are 15x15 rather than Kaggle's
// 75x75 to keep the data small. Each holds one bright target over speckle
// noise: ships are small and very bright, icebergs broader and dimmer, so the
// brightest pixel of band_1 separates the classes well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/seven_zip.h"
#include "pycompat/python_json.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kSize = 15;
constexpr int kNumTrain = 240;
constexpr int kNumTest = 80;
constexpr double kIcebergRate = 0.47;  // as in Kaggle's train.json
constexpr double kMissingAngleRate = 0.05;

// Four decimals, as a short repr in the JSON.
double Round4(double x) { return std::round(x * 1e4) / 1e4; }

// One band: speckle around a background level plus the target's blob.
JsonValue Band(SyntheticRng& rng, double background, double peak, double radius, double cx,
               double cy) {
  JsonValue band = JsonValue::Array();
  for (int y = 0; y < kSize; ++y) {
    for (int x = 0; x < kSize; ++x) {
      const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      const double value =
          background + peak * std::exp(-d2 / (2 * radius * radius)) + rng.Normal(0, 1.6);
      band.items.push_back(JsonValue::Float(Round4(value)));
    }
  }
  return band;
}

JsonValue Sample(SyntheticRng& rng, const std::string& id, bool iceberg, bool labelled) {
  const double cx = rng.Uniform(5, kSize - 5), cy = rng.Uniform(5, kSize - 5);
  const double peak = iceberg ? rng.Uniform(4, 11) : rng.Uniform(9, 19);
  const double radius = iceberg ? rng.Uniform(1.6, 2.6) : rng.Uniform(0.8, 1.4);
  JsonValue sample = JsonValue::Object();
  sample.Set("id", JsonValue::String(id));
  sample.Set("band_1", Band(rng, rng.Uniform(-28, -22), peak, radius, cx, cy));
  sample.Set("band_2", Band(rng, rng.Uniform(-32, -26), peak * 0.7, radius, cx, cy));
  if (labelled && rng.Bernoulli(kMissingAngleRate)) {
    sample.Set("inc_angle", JsonValue::String("na"));
  } else {
    sample.Set("inc_angle", JsonValue::Float(Round4(rng.Uniform(30, 46))));
  }
  if (labelled) sample.Set("is_iceberg", JsonValue::Int(iceberg ? 1 : 0));
  return sample;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng ids_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  std::set<std::string> used;
  auto new_id = [&] {
    std::string id;
    do id = ids_rng.Hex(8); while (!used.insert(id).second);
    return id;
  };
  JsonValue train = JsonValue::Array(), test = JsonValue::Array();
  for (int i = 0; i < kNumTrain; ++i) {
    const std::string id = new_id();
    train.items.push_back(Sample(train_rng, id, train_rng.Bernoulli(kIcebergRate), true));
  }
  CsvTextBuilder sample_submission;
  sample_submission.Row({"id", "is_iceberg"});
  for (int i = 0; i < kNumTest; ++i) {
    const std::string id = new_id();
    test.items.push_back(Sample(test_rng, id, test_rng.Bernoulli(kIcebergRate), false));
    sample_submission.String(id).Float(0.5).EndRow();
  }
  ASSIGN_OR_RETURN(std::string train_json, DumpJson(train));
  ASSIGN_OR_RETURN(std::string test_json, DumpJson(test));
  RETURN_IF_ERROR(Write7z(raw_dir / "train.json.7z",
                          {SevenZipEntry::FromBytes("data/processed/train.json", train_json)}));
  RETURN_IF_ERROR(Write7z(raw_dir / "test.json.7z",
                          {SevenZipEntry::FromBytes("data/processed/test.json", test_json)}));
  return Write7z(raw_dir / "sample_submission.csv.7z",
                 {SevenZipEntry::FromBytes("sample_submission.csv", sample_submission.text())});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
