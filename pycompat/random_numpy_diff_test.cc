// Differential test: NumpyRandomState and TrainTestSplitIndices against
// numpy 1.26.4 and scikit-learn 1.5.1, upstream's pinned versions
// (random_numpy_diff_test.py).

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "pycompat/numpy_random.h"
#include "pycompat/reference_cases.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "pycompat/random_numpy_diff_test.py";

// One case: the line handed to the Python script and our own result, in the
// script's output format.
using Case = testing::ReferenceCase;

std::string HexFloat(double x) {
  // Both sides print IEEE doubles as hex; compare parsed values, not text
  // (Python writes "0x1.0000000000000p-1", printf "0x1p-1").
  return absl::StrFormat("%a", x);
}

std::string SizeToken(const std::optional<SplitSize>& size) {
  if (!size) return "None";
  if (const double* f = std::get_if<double>(&*size)) return "f:" + HexFloat(*f);
  return absl::StrCat("i:", std::get<int64_t>(*size));
}

Case PermutationCase(uint32_t seed, size_t n) {
  NumpyRandomState rng(seed);
  return {absl::StrCat("perm ", seed, " ", n), absl::StrJoin(rng.Permutation(n), " ")};
}

Case SampleCase(uint32_t seed, size_t n) {
  NumpyRandomState rng(seed);
  std::vector<std::string> values;
  for (double x : rng.RandomSample(n)) values.push_back(HexFloat(x));
  return {absl::StrCat("sample ", seed, " ", n), absl::StrJoin(values, " ")};
}

Case RandIntCase(uint32_t seed, int64_t low, int64_t high, size_t n) {
  NumpyRandomState rng(seed);
  absl::StatusOr<std::vector<int64_t>> values = rng.RandInt(low, high, n);
  return {absl::StrCat("randint ", seed, " ", low, " ", high, " ", n),
          values.ok() ? absl::StrJoin(*values, " ") : "ERROR"};
}

Case SplitCase(int64_t seed, int64_t n, std::optional<SplitSize> test_size,
               std::optional<SplitSize> train_size) {
  TrainTestSplitOptions options;
  options.test_size = test_size;
  options.train_size = train_size;
  options.random_state = seed;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(n, options);
  std::string ours = "ERROR";
  if (split.ok()) {
    ours = absl::StrCat(absl::StrJoin(split->train_indices, " "), " | ",
                        absl::StrJoin(split->test_indices, " "));
  }
  return {absl::StrCat("split ", seed, " ", n, " ", SizeToken(test_size), " ",
                       SizeToken(train_size)),
          ours};
}

// Float fields compare by value; everything else as text.
std::vector<Case> AllCases() {
  std::mt19937_64 gen(20240607);
  const std::vector<uint32_t> fixed_seeds = {0, 1, 42, 4294967295u, 123456789};
  std::vector<uint32_t> seeds = fixed_seeds;
  for (int i = 0; i < 5; ++i) seeds.push_back(static_cast<uint32_t>(gen()));

  std::vector<Case> cases;
  const std::vector<size_t> sizes = {0, 1, 2, 3, 7, 10, 100, 623, 624, 625, 1000, 8693, 100000};
  for (uint32_t seed : seeds) {
    for (size_t n : sizes) {
      if (n == 100000 && seed != seeds[0] && seed != seeds[3] && seed != seeds[7]) continue;
      cases.push_back(PermutationCase(seed, n));
    }
    cases.push_back(PermutationCase(seed, 1 + gen() % 20000));
    cases.push_back(SampleCase(seed, 1 + gen() % 2000));

    const int64_t kMin = std::numeric_limits<int64_t>::min();
    const int64_t kMax = std::numeric_limits<int64_t>::max();
    const std::vector<std::pair<int64_t, int64_t>> ranges = {
        {0, 1},  {0, 2},  {0, 10},  {-5, 5},  {3, 3},  {7, 2},
        {0, int64_t{1} << 31},   {0, (int64_t{1} << 32) - 1},
        {0, int64_t{1} << 32},   {0, (int64_t{1} << 32) + 1},
        {-(int64_t{1} << 40), int64_t{1} << 40},
        {0, kMax},  {kMin, kMax},  {kMin, kMin + 1000},
    };
    for (auto [low, high] : ranges) cases.push_back(RandIntCase(seed, low, high, 200));
    const int64_t random_high = static_cast<int64_t>(gen() >> (gen() % 63));
    cases.push_back(RandIntCase(seed, -random_high / 2, random_high, 500));
  }

  const std::vector<std::optional<SplitSize>> test_sizes = {
      0.1, 0.19, 0.2, 0.25, 0.5, 0.07, 0.999, 1e-9, 0.0, 1.0, int64_t{1}, int64_t{3}, int64_t{50},
      int64_t{0}, std::nullopt};
  const std::vector<std::optional<SplitSize>> train_sizes = {std::nullopt, 0.5, int64_t{4}};
  const std::vector<int64_t> split_seeds = {0, 1, 42, 4294967295, 4294967296, -1,
                                            static_cast<int64_t>(gen() >> 32)};
  const std::vector<int64_t> split_ns = {0, 1, 2, 3, 5, 10, 51, 100, 1000, 8693,
                                         static_cast<int64_t>(gen() % 100000)};
  for (int64_t n : split_ns) {
    for (const auto& test_size : test_sizes) {
      for (const auto& train_size : train_sizes) {
        for (int64_t seed : split_seeds) {
          // Keep the output small: the big sizes only with the common sizes.
          if (n >= 1000 && train_size.has_value() && seed != 0) continue;
          cases.push_back(SplitCase(seed, n, test_size, train_size));
        }
      }
    }
  }
  cases.push_back(SplitCase(0, 100000, 0.1, std::nullopt));
  cases.push_back(SplitCase(0, 17500, 0.19, std::nullopt));
  for (int i = 0; i < 40; ++i) {
    const int64_t n = 1 + static_cast<int64_t>(gen() % 5000);
    const double fraction = static_cast<double>(gen() % 1000) / 1000.0;
    cases.push_back(SplitCase(static_cast<int64_t>(gen() >> 32), n, fraction, std::nullopt));
  }
  return cases;
}

TEST(RandomNumpyDiffTest, MatchesNumpyAndScikitLearn) {
  const std::vector<Case> cases = AllCases();
  const int errors = testing::CompareWithReference(kScript, cases, "random_numpy_diff");
  ASSERT_GE(errors, 0);
  // The case list exercises both accepted and rejected inputs.
  EXPECT_GT(errors, 50);
  EXPECT_GT(static_cast<int>(cases.size()) - errors, 1000);
  std::cout << cases.size() << " cases, " << errors << " rejected by both sides\n";
}

}  // namespace
}  // namespace mlebench
