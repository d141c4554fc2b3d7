// Throughput of MeanAveragePrecisionAtK on 1e4..1e7 rows of five ranked
// labels each, upstream's MAP@5 shape. Run optimised:
//   ./bazelw run -c opt //grading/metrics:map_at_k_benchmark

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "grading/metrics/ranking/map_at_k.h"

namespace mlebench {
namespace {

void BM_MeanAveragePrecisionAt5(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(1);
  std::vector<std::set<std::string>> actual(n);
  std::vector<std::vector<std::string>> predicted(n);
  for (size_t i = 0; i < n; ++i) {
    actual[i] = {absl::StrCat("w_", rng() % 1000)};
    for (int j = 0; j < 5; ++j) predicted[i].push_back(absl::StrCat("w_", rng() % 1000));
  }
  for (auto _ : state) benchmark::DoNotOptimize(MeanAveragePrecisionAtK(actual, predicted, 5));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_MeanAveragePrecisionAt5)
    ->RangeMultiplier(10)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
