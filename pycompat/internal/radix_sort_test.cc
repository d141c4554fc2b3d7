#include "pycompat/internal/radix_sort.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench::internal {
namespace {

using Counts = std::vector<std::pair<uint64_t, uint64_t>>;  // (tp, fp) after each run

Counts Runs(std::vector<uint64_t> positive, std::vector<uint64_t> negative) {
  SortKeys(positive);
  SortKeys(negative);
  Counts runs;
  VisitScoreRuns(positive, negative, [&](uint64_t tp, uint64_t fp) { runs.emplace_back(tp, fp); });
  return runs;
}

TEST(VisitScoreRunsTest, OneRunPerDistinctScoreFromTheTopDown) {
  // Scores 5 (+, -), 4 (+), 3 (-, -), 1 (+): runs at 5, 4, 3, 1.
  EXPECT_EQ(Runs({5, 4, 1}, {3, 5, 3}), (Counts{{1, 1}, {2, 1}, {2, 3}, {3, 3}}));
  EXPECT_EQ(Runs({}, {}), Counts{});
  EXPECT_EQ(Runs({7, 7}, {}), (Counts{{2, 0}}));
  EXPECT_EQ(Runs({}, {2, 9}), (Counts{{0, 1}, {0, 2}}));
}

// Against sklearn's way: all rows sorted by score descending, the cumulative
// counts taken at the last row of each run of equal scores.
TEST(VisitScoreRunsTest, AgreesWithCumulativeCountsOverSortedRows) {
  std::mt19937_64 rng(5);
  for (size_t n : {size_t{1}, size_t{10}, size_t{300}, size_t{10000}}) {
    for (uint64_t distinct : {uint64_t{2}, uint64_t{50}, ~uint64_t{0}}) {
      std::vector<std::pair<uint64_t, bool>> rows(n);  // (score key, positive)
      std::vector<uint64_t> positive, negative;
      for (auto& [key, is_positive] : rows) {
        key = distinct == ~uint64_t{0} ? rng() : rng() % distinct;
        is_positive = rng() % 3 == 0;
        (is_positive ? positive : negative).push_back(key);
      }
      std::sort(rows.begin(), rows.end(),
                [](const auto& a, const auto& b) { return a.first > b.first; });
      Counts expected;
      uint64_t tp = 0, fp = 0;
      for (size_t i = 0; i < n; ++i) {
        ++(rows[i].second ? tp : fp);
        if (i + 1 == n || rows[i + 1].first != rows[i].first) expected.emplace_back(tp, fp);
      }
      EXPECT_EQ(Runs(positive, negative), expected) << n << " rows, " << distinct;
    }
  }
}

}  // namespace
}  // namespace mlebench::internal
