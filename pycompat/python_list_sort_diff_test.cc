// Differential test: PythonSortedOrder against CPython 3.11's sorted()
// (/usr/bin/python3, python_list_sort_diff_test.py) on random float lists of
// 0 to 5000 keys: sizes around minrun and merge boundaries, no/few/many/all
// NaN, many ties, signed zeros and infinities, presorted and reversed runs,
// both reverse values. The index sequences must be identical.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "pycompat/reference_cases.h"
#include "pycompat/python_list_sort.h"
#include "base/python_float.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "pycompat/python_list_sort_diff_test.py";
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Random keys of one flavour: `distinct` values (0 for continuous ones),
// a share of NaN, and a layout (random, sorted stretches in either
// direction, nearly sorted, sawtooth) that steers timsort into its
// run-detection, insertion, merge and galloping paths.
std::vector<double> RandomKeys(std::mt19937_64& gen, size_t n) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double nan_share = std::vector<double>{0, 0, 0.005, 0.05, 0.3, 0.7, 1.0}[gen() % 7];
  const int distinct = std::vector<int>{0, 2, 3, 10, 1000}[gen() % 5];
  const bool specials = gen() % 4 == 0;
  std::vector<double> keys(n);
  for (double& k : keys) {
    if (specials && gen() % 4 == 0) {
      k = std::vector<double>{0.0, -0.0, kInf, -kInf}[gen() % 4];
    } else {
      k = distinct == 0 ? unit(gen) : static_cast<double>(gen() % static_cast<uint64_t>(distinct));
    }
  }
  const int layout = static_cast<int>(gen() % 6);
  auto sort_range = [&](size_t from, size_t to, bool descending) {
    if (descending) {
      std::sort(keys.begin() + from, keys.begin() + to, std::greater<>());
    } else {
      std::sort(keys.begin() + from, keys.begin() + to);
    }
  };
  if (layout == 1 || layout == 2) {  // sorted or reversed stretches of random length
    for (size_t i = 0; i < n;) {
      const size_t len = 1 + gen() % (layout == 1 ? 100 : 1000);
      const size_t to = std::min(n, i + len);
      sort_range(i, to, gen() % 2 == 0);
      i = to;
    }
  } else if (layout == 3) {  // all sorted one way, then a few swaps
    sort_range(0, n, gen() % 2 == 0);
    for (int s = static_cast<int>(gen() % 4); n > 1 && s > 0; --s) {
      std::swap(keys[gen() % n], keys[gen() % n]);
    }
  } else if (layout == 4) {  // sawtooth: ascending blocks of one length
    const size_t block = 1 + gen() % 300;
    for (size_t i = 0; i < n; i += block) sort_range(i, std::min(n, i + block), false);
  }
  // NaN last, so that the layouts above keep their shape around them.
  for (double& k : keys) {
    if (unit(gen) < nan_share) k = kNan;
  }
  return keys;
}

std::vector<testing::ReferenceCase> AllCases(int* with_nan, int* long_with_nan) {
  std::mt19937_64 gen(20261130);
  const std::vector<size_t> sizes = {0,    1,    2,    3,    4,    5,    7,    8,    15,   16,
                                     31,   32,   33,   63,   64,   65,   66,   127,  128,  129,
                                     130,  255,  256,  257,  511,  512,  513,  1000, 1023, 1024,
                                     1025, 2047, 2048, 2049, 4095, 4096, 4097, 5000};
  std::vector<size_t> plan;
  for (size_t n : sizes) {
    for (int r = 0; r < (n > 1100 ? 4 : 20); ++r) plan.push_back(n);
  }
  for (int r = 0; r < 1500; ++r) plan.push_back(gen() % 400);
  std::vector<testing::ReferenceCase> cases;
  for (size_t n : plan) {
    const std::vector<double> keys = RandomKeys(gen, n);
    const bool reverse = gen() % 2 == 0;
    std::string line = reverse ? "1" : "0";
    for (double k : keys) absl::StrAppend(&line, " ", FormatPythonFloat(k));
    if (std::any_of(keys.begin(), keys.end(), [](double k) { return k != k; })) {
      ++*with_nan;
      if (n > 64) ++*long_with_nan;
    }
    cases.push_back({std::move(line), absl::StrJoin(PythonSortedOrder(keys, reverse), " ")});
  }
  return cases;
}

TEST(PythonListSortDiffTest, MatchesCPython311) {
  int with_nan = 0, long_with_nan = 0;
  const std::vector<testing::ReferenceCase> cases = AllCases(&with_nan, &long_with_nan);
  EXPECT_EQ(testing::CompareWithReference(kScript, cases, "python_list_sort_diff"), 0);
  // The cases that only the exact algorithm gets right are plentiful.
  EXPECT_GT(with_nan, 1000);
  EXPECT_GT(long_with_nan, 300);
  std::cout << cases.size() << " cases, " << with_nan << " with NaN (" << long_with_nan
            << " of more than 64 keys)\n";
}

}  // namespace
}  // namespace mlebench
