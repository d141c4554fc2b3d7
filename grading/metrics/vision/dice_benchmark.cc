// Throughput of the Dice graders' inner loop on 1e4..1e7 masks: decoding a
// run-length-encoded prediction and answer per row (upstream's rle_decode)
// and their Dice coefficient, per image and over all images (global Dice).
// Each mask is a 64x64 image with a few runs, the shape of the segmentation
// competitions' rows. Run optimised:
//   ./bazelw run -c opt //grading/metrics:dice_benchmark

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "grading/metrics/vision/dice.h"
#include "grading/metrics/vision/run_length_encoding.h"

namespace mlebench {
namespace {

constexpr int64_t kPixels = 64 * 64;

// A mask of 1-4 runs as upstream's RLE text ("start length ...", 1-based).
std::string RandomRle(std::mt19937_64& rng) {
  std::string rle;
  int64_t at = 1;
  const int runs = 1 + static_cast<int>(rng() % 4);
  for (int r = 0; r < runs && at < kPixels; ++r) {
    at += static_cast<int64_t>(rng() % 600);
    const int64_t length = 1 + static_cast<int64_t>(rng() % 300);
    absl::StrAppend(&rle, rle.empty() ? "" : " ", at, " ", length);
    at += length + 1;
  }
  return rle;
}

void MakeRows(size_t n, std::vector<std::string>& predicted, std::vector<std::string>& truth) {
  std::mt19937_64 rng(1);
  predicted.resize(n);
  truth.resize(n);
  for (size_t i = 0; i < n; ++i) {
    predicted[i] = RandomRle(rng);
    truth[i] = RandomRle(rng);
  }
}

void BM_DiceRlePerImage(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<std::string> predicted, truth;
  MakeRows(n, predicted, truth);
  for (auto _ : state) {
    double sum = 0;
    for (size_t i = 0; i < n; ++i) {
      absl::StatusOr<PixelRuns> p = DecodeRle(predicted[i], kPixels);
      absl::StatusOr<PixelRuns> t = DecodeRle(truth[i], kPixels);
      sum += *DiceCoefficient(*p, *t, 1.0);
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_DiceRlePerImage)
    ->RangeMultiplier(10)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);

void BM_GlobalDiceRle(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<std::string> predicted_text, truth_text;
  MakeRows(n, predicted_text, truth_text);
  for (auto _ : state) {
    std::vector<PixelRuns> predicted, truth;
    predicted.reserve(n);
    truth.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      predicted.push_back(*DecodeRle(predicted_text[i], kPixels));
      truth.push_back(*DecodeRle(truth_text[i], kPixels));
    }
    benchmark::DoNotOptimize(GlobalDiceCoefficient(predicted, truth, 1.0));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_GlobalDiceRle)
    ->RangeMultiplier(10)
    ->Range(10'000, 10'000'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlebench
