// Synthetic raw download of predict-volcanic-eruptions-ingv-oe, in the
// Kaggle layout that upstream's prepare.py reads: train.csv (segment_id, a
// distinct positive integer below 2**31; time_to_eruption, an integer number
// of hundredths of a second, up to about 4.9e7) and train/<segment_id>.csv,
// each segment's seismograph readings: columns sensor_1 .. sensor_10 of
// integer counts, a sensor sometimes missing for the whole segment (empty
// fields, as on Kaggle). Kaggle's segments hold 60001 readings; ours hold
// 100 to stay small. Kaggle's test/ and sample_submission.csv are never
// read upstream and are left out.
//
// Signal: the volcano grows noisier as the eruption approaches, so each
// sensor's amplitude falls with time_to_eruption (with per-sensor gain and
// noise): the log of a segment's standard deviation predicts the target.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumSegments = 150;
constexpr int kNumReadings = 100;
constexpr int kNumSensors = 10;
constexpr double kMaxTimeToEruption = 49'000'000;

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "train");
  CsvTextBuilder train;
  train.String("segment_id").String("time_to_eruption").EndRow();
  std::set<int64_t> used_ids;
  for (int segment = 0; segment < kNumSegments; ++segment) {
    int64_t id = rng.UniformInt(int64_t{500'000}, int64_t{2'147'483'647});
    while (!used_ids.insert(id).second) id = rng.UniformInt(int64_t{500'000}, int64_t{2'147'483'647});
    const int64_t time_to_eruption = rng.UniformInt(int64_t{6'000}, int64_t{49'000'000});
    train.Int(id).Int(time_to_eruption).EndRow();

    // Amplitude from ~40 counts far from an eruption to ~2000 just before.
    const double closeness = 1.0 - time_to_eruption / kMaxTimeToEruption;
    const double amplitude = 40.0 * std::exp(3.9 * closeness + rng.Normal(0, 0.15));
    CsvTextBuilder readings;
    bool missing[kNumSensors];
    double gain[kNumSensors];
    for (int s = 0; s < kNumSensors; ++s) {
      readings.String(absl::StrCat("sensor_", s + 1));
      missing[s] = rng.Bernoulli(0.08);
      gain[s] = rng.Uniform(0.6, 1.4);
    }
    readings.EndRow();
    for (int r = 0; r < kNumReadings; ++r) {
      for (int s = 0; s < kNumSensors; ++s) {
        if (missing[s]) {
          readings.Missing();
        } else {
          readings.Int(static_cast<int64_t>(std::lround(amplitude * gain[s] * rng.Normal())));
        }
      }
      readings.EndRow();
    }
    RETURN_IF_ERROR(
        WriteStringToFile(raw_dir / "train" / absl::StrCat(id, ".csv"), readings.text()));
  }
  return WriteStringToFile(raw_dir / "train.csv", train.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
