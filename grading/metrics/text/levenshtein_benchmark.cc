// Throughput of MeanLevenshteinDistance on 1e4..1e7 pairs of short texts:
// sentences of ~20 words with one word removed (billion-word-imputation's
// shape) and InChI-like strings of ~60..200 characters with a few edits
// (bms-molecular-translation's). Run optimised:
//   ./bazelw run -c opt //grading/metrics:levenshtein_benchmark

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "benchmark/benchmark.h"
#include "grading/metrics/text/levenshtein.h"

namespace mlebench {
namespace {

std::string RandomText(std::mt19937_64 &rng, size_t length, std::string_view alphabet) {
  std::string text;
  for (size_t i = 0; i < length; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
  return text;
}

void BM_MeanLevenshteinSentences(benchmark::State &state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(1);
  std::vector<std::string> truths(n), predictions(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t words = 5 + rng() % 30;
    std::string sentence, removed;
    const size_t drop = 1 + rng() % (words - 2);
    for (size_t w = 0; w < words; ++w) {
      const std::string word = RandomText(rng, 1 + rng() % 8, "abcdefghijklmnopqrstuvwxyz");
      sentence += (w == 0 ? "" : " ") + word;
      if (w != drop) removed += (removed.empty() ? "" : " ") + word;
    }
    truths[i] = sentence;
    predictions[i] = removed;
  }
  const std::vector<std::string_view> truth_views(truths.begin(), truths.end());
  const std::vector<std::string_view> prediction_views(predictions.begin(), predictions.end());
  for (auto _ : state) {
    benchmark::DoNotOptimize(MeanLevenshteinDistance(truth_views, prediction_views));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_MeanLevenshteinSentences)
    ->RangeMultiplier(10)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);

void BM_MeanLevenshteinInchi(benchmark::State &state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::mt19937_64 rng(2);
  std::vector<std::string> truths(n), predictions(n);
  for (size_t i = 0; i < n; ++i) {
    truths[i] = "InChI=1S/" + RandomText(rng, 50 + rng() % 150, "CHNOS0123456789/-,()hbtm");
    predictions[i] = truths[i];
    for (int e = 0; e < 4; ++e) predictions[i][9 + rng() % (truths[i].size() - 9)] = 'X';
  }
  const std::vector<std::string_view> truth_views(truths.begin(), truths.end());
  const std::vector<std::string_view> prediction_views(predictions.begin(), predictions.end());
  for (auto _ : state) {
    benchmark::DoNotOptimize(MeanLevenshteinDistance(truth_views, prediction_views));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_MeanLevenshteinInchi)
    ->RangeMultiplier(10)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
