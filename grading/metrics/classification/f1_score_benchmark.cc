// Google Benchmark of the F-scores over realistic submission sizes:
//   bazel run -c opt //grading/metrics:f1_score_benchmark
#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "grading/metrics/classification/f1_score.h"

namespace mlebench {
namespace {

uint64_t Next(uint64_t& x) {
  x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

void BM_MulticlassMacroF1(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<int64_t> t(n), p(n);
  uint64_t x = 12345;
  for (size_t i = 0; i < n; ++i) {
    Next(x);
    t[i] = static_cast<int64_t>((x >> 33) % 1000);
    p[i] = (x >> 20) % 4 == 0 ? t[i] : static_cast<int64_t>((x >> 40) % 1000);
  }
  FScoreOptions options;
  options.average = FScoreAverage::kMacro;
  for (auto _ : state) benchmark::DoNotOptimize(MulticlassFScore(t, p, options));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_MulticlassMacroF1)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);

void BM_MultilabelMicroF1(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  const std::vector<std::string> classes = {"a", "b", "c", "d", "e", "f", "g", "h"};
  std::vector<std::vector<std::string>> t(n), p(n);
  uint64_t x = 99;
  for (size_t i = 0; i < n; ++i) {
    Next(x);
    for (int k = 0; k < 3; ++k) {
      t[i].push_back(classes[(x >> (20 + 3 * k)) % 8]);
      p[i].push_back(classes[(x >> (29 + 3 * k)) % 8]);
    }
  }
  FScoreOptions options;
  options.average = FScoreAverage::kMicro;
  for (auto _ : state) benchmark::DoNotOptimize(MultilabelFScore(t, p, classes, options));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_MultilabelMicroF1)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
