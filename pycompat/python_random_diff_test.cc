// Differential test: PythonRandom against CPython 3.11's random module
// (/usr/bin/python3, python_random_diff_test.py) on many seeds and sizes.

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
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
#include "pycompat/python_random.h"
#include "pycompat/reference_cases.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "pycompat/python_random_diff_test.py";

using Case = testing::ReferenceCase;

// Draws `count` values with `draw`; "ERROR" as soon as one fails, as Python
// raises on the first.
Case Repeat(std::string line, int64_t seed, int count,
            const std::function<absl::StatusOr<std::string>(PythonRandom&)>& draw) {
  PythonRandom rng(seed);
  std::vector<std::string> values;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<std::string> value = draw(rng);
    if (!value.ok()) return {std::move(line), "ERROR"};
    values.push_back(*value);
  }
  return {std::move(line), absl::StrJoin(values, " ")};
}

template <typename T>
absl::StatusOr<std::string> Text(const absl::StatusOr<T>& value) {
  if (!value.ok()) return value.status();
  return absl::StrCat(*value);
}

std::string Indices(const absl::StatusOr<std::vector<int64_t>>& v) {
  return v.ok() ? absl::StrJoin(*v, " ") : "ERROR";
}

std::vector<Case> AllCases() {
  std::mt19937_64 gen(20261129);
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> seeds = {0, 1, -1, 42, 4294967295, 4294967296, -4294967297, kMax, kMin};
  for (int i = 0; i < 6; ++i) seeds.push_back(static_cast<int64_t>(gen() >> (gen() % 64)));

  std::vector<Case> cases;
  for (int64_t seed : seeds) {
    cases.push_back(Repeat(absl::StrCat("random ", seed, " 700"), seed, 700,
                           [](PythonRandom& r) -> absl::StatusOr<std::string> {
                             return absl::StrFormat("%a", r.Random());
                           }));
    for (int k : {0, 1, 5, 31, 32, 33, 53, 63, 64}) {
      cases.push_back(Repeat(absl::StrCat("bits ", seed, " ", k, " 50"), seed, 50,
                             [k](PythonRandom& r) { return Text(r.GetRandBits(k)); }));
    }
    for (int64_t n : {0, 1, 2, 3, 10, 100, 623, 624, 625, 1000, 5000}) {
      std::vector<int64_t> x(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = i;
      PythonRandom(seed).Shuffle(x);
      cases.push_back({absl::StrCat("shuffle ", seed, " ", n), absl::StrJoin(x, " ")});
    }
    // sample(): sizes around CPython's switch between its pool and set
    // algorithms (n <= 21 + 4**ceil(log(3k, 4)) for k > 5, else n <= 21).
    const std::vector<std::pair<int64_t, int64_t>> samples = {
        {0, 0},   {1, 1},   {5, 3},    {20, 20},  {21, 5},   {22, 5},   {22, 0},
        {85, 6},  {86, 6},  {87, 6},   {85, 7},   {1000, 10}, {1000, 1000}, {100000, 50},
        {277, 22}, {278, 22}, {1045, 86}, {1046, 86}, {3, 4},  {3, -1},  {4117, 342},
        {4118, 342}, {10, 9}, {300, 299}};
    for (auto [n, k] : samples) {
      PythonRandom rng(seed);
      cases.push_back({absl::StrCat("sample ", seed, " ", n, " ", k), Indices(rng.SampleIndices(n, k))});
    }
    {
      const int64_t n = 1 + static_cast<int64_t>(gen() % 3000);
      const int64_t k = static_cast<int64_t>(gen() % static_cast<uint64_t>(n + 1));
      PythonRandom rng(seed);
      cases.push_back({absl::StrCat("sample ", seed, " ", n, " ", k), Indices(rng.SampleIndices(n, k))});
      PythonRandom module(seed);
      cases.push_back({absl::StrCat("module_sample ", seed, " 20 20"), Indices(module.SampleIndices(20, 20))});
    }
    for (int64_t stop : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{0}, int64_t{-4}, int64_t{1000},
                         (int64_t{1} << 32) + 1, kMax}) {
      cases.push_back(Repeat(absl::StrCat("randrange1 ", seed, " ", stop, " 40"), seed, 40,
                             [stop](PythonRandom& r) { return Text(r.RandRange(stop)); }));
    }
    const std::vector<std::array<int64_t, 3>> ranges = {
        {0, 10, 1}, {-5, 5, 1}, {3, 3, 1},  {7, 2, 1},   {0, 10, 3},  {10, 0, -3}, {10, 0, 3},
        {0, 10, 0}, {-100, 100, 7}, {0, 1, 5}, {kMin, kMax, 1}, {kMin, kMax, 2}, {kMax, kMin, -3},
        {-(int64_t{1} << 40), int64_t{1} << 40, 1}};
    for (const auto& r3 : ranges) {
      cases.push_back(Repeat(absl::StrCat("randrange ", seed, " ", r3[0], " ", r3[1], " ", r3[2], " 40"),
                             seed, 40, [r3](PythonRandom& r) { return Text(r.RandRange(r3[0], r3[1], r3[2])); }));
    }
    const std::vector<std::pair<int64_t, int64_t>> ints = {
        {1, 6}, {0, 0}, {5, 4}, {-3, 3}, {kMax - 5, kMax}, {kMin, kMax - 1}, {0, kMax}};
    for (auto [a, b] : ints) {
      cases.push_back(Repeat(absl::StrCat("randint ", seed, " ", a, " ", b, " 40"), seed, 40,
                             [a = a, b = b](PythonRandom& r) { return Text(r.RandInt(a, b)); }));
    }
    for (int64_t n : {0, 1, 2, 7, 1000}) {
      cases.push_back(Repeat(absl::StrCat("choice ", seed, " ", n, " 40"), seed, 40,
                             [n](PythonRandom& r) { return Text(r.ChoiceIndex(n)); }));
    }
  }
  return cases;
}

TEST(PythonRandomDiffTest, MatchesCPython) {
  const std::vector<Case> cases = AllCases();
  const int errors = testing::CompareWithReference(kScript, cases, "python_random_diff");
  ASSERT_GE(errors, 0);
  EXPECT_GT(errors, 50);
  EXPECT_GT(static_cast<int>(cases.size()) - errors, 500);
  std::cout << cases.size() << " cases, " << errors << " rejected by both sides\n";
}

}  // namespace
}  // namespace mlebench
