#include "pycompat/python_list_sort.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "pycompat/python_list_sort_internal.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<size_t> Sorted(const std::vector<double>& keys, bool reverse = false) {
  return PythonSortedOrder(keys, reverse);
}

TEST(PythonSortedOrderTest, EmptyAndSingle) {
  EXPECT_THAT(Sorted({}), IsEmpty());
  EXPECT_THAT(Sorted({}, true), IsEmpty());
  EXPECT_THAT(Sorted({kNan}), ElementsAre(0));
  EXPECT_THAT(Sorted({5.0}, true), ElementsAre(0));
}

TEST(PythonSortedOrderTest, AllNanKeepsOrder) {
  const std::vector<double> keys(100, kNan);
  std::vector<size_t> identity(keys.size());
  std::iota(identity.begin(), identity.end(), size_t{0});
  EXPECT_EQ(Sorted(keys), identity);
  EXPECT_EQ(Sorted(keys, true), identity);
}

// [3, 1, 2, 0] with a NaN inserted at each position; expected orders from
// CPython 3.11.2.
TEST(PythonSortedOrderTest, NanAtEachPosition) {
  const std::vector<double> base = {3.0, 1.0, 2.0, 0.0};
  const std::vector<std::vector<size_t>> ascending = {
      {0, 4, 2, 3, 1}, {0, 1, 4, 2, 3}, {4, 1, 3, 0, 2}, {4, 1, 2, 0, 3}, {3, 1, 2, 0, 4}};
  const std::vector<std::vector<size_t>> descending = {
      {0, 1, 3, 2, 4}, {0, 1, 3, 2, 4}, {0, 1, 2, 3, 4}, {0, 2, 1, 3, 4}, {0, 2, 1, 3, 4}};
  for (size_t p = 0; p <= base.size(); ++p) {
    std::vector<double> keys = base;
    keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(p), kNan);
    EXPECT_EQ(Sorted(keys), ascending[p]) << "NaN at " << p;
    EXPECT_EQ(Sorted(keys, true), descending[p]) << "NaN at " << p;
  }
}

TEST(PythonSortedOrderTest, NanLeavesOtherKeysUnsorted) {
  // 1.0 < NaN and NaN < 2.0 are both false: one ascending run, untouched.
  EXPECT_THAT(Sorted({2.0, kNan, 1.0}), ElementsAre(0, 1, 2));
  EXPECT_THAT(Sorted({1.0, kNan, 2.0}, true), ElementsAre(0, 1, 2));
}

TEST(PythonSortedOrderTest, DescendingRunsMustBeStrict) {
  EXPECT_THAT(Sorted({3.0, 2.0, 1.0, 0.0}), ElementsAre(3, 2, 1, 0));
  EXPECT_THAT(Sorted({3.0, 2.0, 2.0, 1.0}), ElementsAre(3, 1, 2, 0));
  // 3.11 ends the descending run at the tie ([2, 1] reversed, the rest by
  // binary insertion); a run that also took equal (or NaN) neighbours, as
  // CPython 3.13 does, would give another order. From CPython 3.11.2.
  EXPECT_THAT(Sorted({2.0, 1.0, 1.0, kNan, 0.5}), ElementsAre(4, 1, 2, 0, 3));
}

TEST(PythonSortedOrderTest, ReverseKeepsTiesInOriginalOrder) {
  EXPECT_THAT(Sorted({1.0, 2.0, 1.0, 2.0}, true), ElementsAre(1, 3, 0, 2));
  EXPECT_THAT(Sorted({5.0, 5.0, 5.0}, true), ElementsAre(0, 1, 2));
}

TEST(PythonSortedOrderTest, SignedZerosAreEqualInfinitiesOrder) {
  const std::vector<double> keys = {0.0, -0.0, kInf, -kInf, -0.0};
  EXPECT_THAT(Sorted(keys), ElementsAre(3, 0, 1, 4, 2));
  EXPECT_THAT(Sorted(keys, true), ElementsAre(2, 0, 1, 4, 3));
}

// Without NaN, CPython's sort is a stable sort: long lists (many runs,
// merges, galloping) must agree with std::stable_sort.
TEST(PythonSortedOrderTest, WithoutNanEqualsStableSort) {
  std::mt19937_64 gen(7);
  for (size_t n : {63, 64, 65, 200, 1000, 4097}) {
    for (int distinct : {2, 50, 1 << 30}) {
      std::vector<double> keys(n);
      for (double& k : keys) k = static_cast<double>(gen() % static_cast<uint64_t>(distinct));
      // Some presorted stretches so that merges gallop.
      std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n / 3));
      std::sort(keys.begin() + static_cast<std::ptrdiff_t>(n / 2), keys.end(), std::greater<>());
      for (bool reverse : {false, true}) {
        std::vector<size_t> expected(n);
        std::iota(expected.begin(), expected.end(), size_t{0});
        std::stable_sort(expected.begin(), expected.end(), [&](size_t a, size_t b) {
          return reverse ? keys[a] > keys[b] : keys[a] < keys[b];
        });
        EXPECT_EQ(Sorted(keys, reverse), expected) << n << " " << distinct << " " << reverse;
      }
    }
  }
}

// The template sorts other element types with their own predicate.
TEST(CPythonListSortTest, SortsStringsStably) {
  std::vector<std::string> words = {"pear", "fig", "apple", "kiwi", "plum", "date"};
  python_list_sort_internal::CPythonListSort(
      std::span<std::string>(words),
      [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  EXPECT_THAT(words, ElementsAre("fig", "pear", "kiwi", "plum", "date", "apple"));
}

}  // namespace
}  // namespace mlebench
