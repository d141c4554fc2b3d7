// Synthetic raw download of tabular-playground-series-dec-2021: train.csv,
// test.csv and sample_submission.csv with Kaggle's 56 integer columns (Id, ten
// terrain measurements, four Wilderness_Area and forty Soil_Type indicators,
// Cover_Type 1-7 in train). Like Kaggle's GAN-made data, class frequencies
// are very uneven (classes 1 and 2 dominate, 4 and 5 are rare), measurements
// stray a little outside their physical ranges, the indicators are usually
// but not always one-hot, and Soil_Type7 and Soil_Type15 are always 0. The
// class is drawn first and the features from class-dependent distributions:
// elevation separates the classes most, road and fire-point distances,
// wilderness area and soil type help, so a small decision tree reaches over
// 80% accuracy where the sample submission's constant class 2 gets about 55%.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

// Row counts vary a little with the seed, so that every file (the sample
// submission too) differs between seeds.
constexpr int kMinTrainRows = 2950;
constexpr int kMinTestRows = 950;
constexpr int kExtraRowsRange = 100;
constexpr int kNumClasses = 7;
constexpr int kNumWilderness = 4;
constexpr int kNumSoils = 40;

// Per class (index 0 is Cover_Type 1): frequency, mean elevation, mean road
// and fire-point distances.
constexpr double kClassWeight[kNumClasses] = {36, 55, 5, 0.3, 0.15, 1.2, 2.5};
constexpr double kElevation[kNumClasses] = {3170, 2840, 2400, 2200, 2700, 2500, 3420};
constexpr double kRoadways[kNumClasses] = {2800, 1700, 1100, 900, 1500, 1200, 2900};
constexpr double kFirePoints[kNumClasses] = {2600, 1600, 1200, 1000, 1600, 1300, 2400};
// Per class, the weights of Wilderness_Area1-4.
constexpr double kWilderness[kNumClasses][kNumWilderness] = {
    {60, 6, 30, 4}, {30, 3, 55, 12}, {3, 2, 25, 70}, {0.5, 0.5, 4, 95},
    {10, 5, 80, 5}, {3, 2, 35, 60},  {20, 20, 58, 2}};
// Per class, the soil types (1-based) it favours.
const std::vector<std::vector<int>> kFavouredSoils = {{29, 23, 32, 33, 22, 24},
                                                      {29, 23, 32, 33, 10, 31},
                                                      {10, 2, 4, 6, 3},
                                                      {3, 10, 6},
                                                      {29, 18, 33},
                                                      {10, 4, 2, 6},
                                                      {38, 39, 40, 22, 35}};
constexpr int kNeverSoils[] = {7, 15};  // constant 0 in Kaggle's data

int64_t RoundedNormal(SyntheticRng& rng, double mean, double stddev, double lo, double hi) {
  return static_cast<int64_t>(std::clamp(std::round(rng.Normal(mean, stddev)), lo, hi));
}

std::vector<double> SoilWeights(int cls) {
  std::vector<double> weights(kNumSoils, 0.5);
  for (int soil : kFavouredSoils[cls]) weights[soil - 1] = 8.0;
  for (int soil : kNeverSoils) weights[soil - 1] = 0.0;
  return weights;
}

// Indicator columns: one drawn 1, now and then a second 1 or none at all.
std::vector<int> Indicators(SyntheticRng& rng, const std::vector<double>& weights,
                            double extra_rate, double none_rate) {
  std::vector<int> flags(weights.size(), 0);
  if (!rng.Bernoulli(none_rate)) flags[rng.Categorical(weights)] = 1;
  if (rng.Bernoulli(extra_rate)) flags[rng.Categorical(weights)] = 1;
  return flags;
}

// Writes one row's feature columns (everything but Cover_Type) for class
// index `cls`.
void AddFeatures(SyntheticRng& rng, int64_t id, int cls, CsvTextBuilder& csv) {
  csv.Int(id);
  csv.Int(RoundedNormal(rng, kElevation[cls], 170, 1773, 4383));     // Elevation
  csv.Int(static_cast<int64_t>(std::floor(rng.Uniform(-33, 408))));  // Aspect
  csv.Int(RoundedNormal(rng, 15, 8, -3, 64));                        // Slope
  csv.Int(RoundedNormal(rng, 270, 220, -92, 1602));              // Horizontal_Distance_To_Hydrology
  csv.Int(RoundedNormal(rng, 50, 70, -317, 647));                // Vertical_Distance_To_Hydrology
  csv.Int(RoundedNormal(rng, kRoadways[cls], 900, -287, 7666));  // ..._To_Roadways
  csv.Int(RoundedNormal(rng, 212, 30, -4, 301));                 // Hillshade_9am
  csv.Int(RoundedNormal(rng, 221, 22, 49, 279));                 // Hillshade_Noon
  csv.Int(RoundedNormal(rng, 140, 42, -53, 272));                // Hillshade_3pm
  csv.Int(RoundedNormal(rng, kFirePoints[cls], 900, -277, 8075));  // ..._To_Fire_Points
  const std::vector<double> wilderness(std::begin(kWilderness[cls]), std::end(kWilderness[cls]));
  for (int flag : Indicators(rng, wilderness, 0.03, 0.02)) csv.Int(flag);
  for (int flag : Indicators(rng, SoilWeights(cls), 0.05, 0.03)) csv.Int(flag);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<std::string> header = {"Id",
                                     "Elevation",
                                     "Aspect",
                                     "Slope",
                                     "Horizontal_Distance_To_Hydrology",
                                     "Vertical_Distance_To_Hydrology",
                                     "Horizontal_Distance_To_Roadways",
                                     "Hillshade_9am",
                                     "Hillshade_Noon",
                                     "Hillshade_3pm",
                                     "Horizontal_Distance_To_Fire_Points"};
  for (int i = 1; i <= kNumWilderness; ++i) header.push_back(absl::StrCat("Wilderness_Area", i));
  for (int i = 1; i <= kNumSoils; ++i) header.push_back(absl::StrCat("Soil_Type", i));

  CsvTextBuilder train, test, sample;
  for (const std::string& column : header) {
    train.String(column);
    test.String(column);
  }
  train.String("Cover_Type").EndRow();
  test.EndRow();
  sample.Row({"Id", "Cover_Type"});

  const int64_t train_rows = kMinTrainRows + static_cast<int64_t>(rng.UniformInt(kExtraRowsRange));
  const int64_t test_rows = kMinTestRows + static_cast<int64_t>(rng.UniformInt(kExtraRowsRange));
  const std::vector<double> class_weights(std::begin(kClassWeight), std::end(kClassWeight));
  // Kaggle numbers train rows from 0 and test rows after them.
  for (int64_t id = 0; id < train_rows + test_rows; ++id) {
    const int cls = static_cast<int>(rng.Categorical(class_weights));
    if (id < train_rows) {
      AddFeatures(rng, id, cls, train);
      train.Int(cls + 1).EndRow();
    } else {
      AddFeatures(rng, id, cls, test);
      test.EndRow();
      sample.Int(id).Int(2).EndRow();
    }
  }
  for (const auto& [name, csv] : {std::pair{"train.csv", &train}, std::pair{"test.csv", &test},
                                  std::pair{"sample_submission.csv", &sample}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, csv->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
