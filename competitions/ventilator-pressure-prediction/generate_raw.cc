// Synthetic raw download of ventilator-pressure-prediction, in the Kaggle
// layout that upstream's prepare.py reads: train.csv with Kaggle's columns
// id (1, 2, ...), breath_id (increasing, with gaps), R in {5, 20, 50}, C in
// {10, 20, 50}, time_step (seconds, ~0.033 apart), u_in (0 to 100), u_out
// (0 for the first third of a breath, then 1) and pressure (cmH2O), rows
// grouped by breath in time order. Kaggle's breaths have 80 steps; ours 30.
// Kaggle's test.csv and sample_submission.csv are never read upstream and
// are left out.
//
// Signal: pressure follows a single-compartment lung, PEEP + R * flow +
// volume / C, with flow proportional to u_in and volume its running sum
// during inspiration, plus noise; after u_out opens it decays to PEEP. A
// linear model on u_in, the cumulative u_in and their products with R and
// 1/C predicts it well.
#include <cmath>
#include <cstdint>
#include <filesystem>

#include "absl/status/status.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumBreaths = 400;
constexpr int kStepsPerBreath = 30;
constexpr int kInspiratorySteps = 10;

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir);
  CsvTextBuilder csv;
  csv.Row({"id", "breath_id", "R", "C", "time_step", "u_in", "u_out", "pressure"});
  constexpr int64_t kResistances[] = {5, 20, 50};
  constexpr int64_t kCompliances[] = {10, 20, 50};
  int64_t id = 1, breath_id = 0;
  for (int breath = 0; breath < kNumBreaths; ++breath) {
    breath_id += rng.UniformInt(int64_t{1}, int64_t{3});
    const int64_t r = kResistances[rng.UniformInt(3)];
    const int64_t c = kCompliances[rng.UniformInt(3)];
    const double peep = rng.Uniform(5.0, 6.0);
    const double target = rng.Uniform(5, 60);  // how far the valve opens
    double time = 0, volume = 0, pressure = peep;
    for (int step = 0; step < kStepsPerBreath; ++step) {
      const bool inspiratory = step < kInspiratorySteps;
      const double u_in =
          inspiratory ? std::max(0.0, target * (0.4 + 0.06 * step) + rng.Normal(0, 3)) : 0.0;
      if (inspiratory) {
        const double flow = u_in * 0.05;
        volume += flow * 0.5;
        pressure = peep + r * flow * 0.2 + volume * 40.0 / c + rng.Normal(0, 0.3);
      } else {
        pressure = peep + (pressure - peep) * 0.6 + rng.Normal(0, 0.2);
      }
      csv.Int(id++).Int(breath_id).Int(r).Int(c).Float(time).Float(u_in).Int(inspiratory ? 0 : 1);
      csv.Float(pressure).EndRow();
      time += 0.0331 + rng.Uniform(0, 0.0008);
    }
  }
  return WriteStringToFile(raw_dir / "train.csv", csv.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
