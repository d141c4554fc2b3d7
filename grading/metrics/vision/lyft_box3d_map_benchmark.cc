// Time of LyftMeanAveragePrecision at the real test set's scale: ~4,500
// samples of ~30 answer boxes (mostly cars, scattered over 100 m x 100 m as
// around a vehicle) and ~60 predicted boxes jittered around them or spurious.
// Run optimised:
//   ./bazelw run -c opt //grading/metrics:lyft_box3d_map_benchmark

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "grading/metrics/vision/lyft_box3d_map.h"

namespace mlebench {
namespace {

LyftBox RandomBox(std::mt19937_64& rng, const std::string& name) {
  std::uniform_real_distribution<double> unit(0, 1);
  LyftBox box;
  box.score = unit(rng);
  box.center_x = 2000 + 100 * unit(rng);
  box.center_y = 600 + 100 * unit(rng);
  box.center_z = -18 + unit(rng);
  box.width = 1.5 + unit(rng);
  box.length = 3.5 + 2 * unit(rng);
  box.height = 1.4 + unit(rng);
  const double theta = (unit(rng) * 6.28 - 3.14) / 2;
  box.rotation = {std::cos(theta), 0, 0, std::sin(theta)};
  box.name = name;
  return box;
}

std::vector<LyftSample> Samples(size_t n) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> jitter(0, 0.3);
  const std::vector<std::string> names = {"car",   "car",     "car", "car",          "pedestrian",
                                          "truck", "bicycle", "bus", "other_vehicle"};
  std::vector<LyftSample> samples(n);
  for (LyftSample& sample : samples) {
    for (int i = 0; i < 30; ++i) sample.truths.push_back(RandomBox(rng, names[rng() % 9]));
    for (const LyftBox& truth : sample.truths) {
      LyftBox guess = truth;
      guess.center_x += jitter(rng);
      guess.center_y += jitter(rng);
      guess.score = std::uniform_real_distribution<double>(0, 1)(rng);
      sample.predictions.push_back(guess);
      sample.predictions.push_back(RandomBox(rng, names[rng() % 9]));
    }
  }
  return samples;
}

void BM_LyftMeanAveragePrecision(benchmark::State& state) {
  const std::vector<LyftSample> samples = Samples(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(LyftMeanAveragePrecision(samples));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_LyftMeanAveragePrecision)->Arg(100)->Arg(4500)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
