#include "grading/metrics/correlation/kendall_tau.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;
using Lists = std::vector<std::vector<std::string>>;

TEST(KendallTauTest, IdenticalOrdersScoreOneReversedMinusOne) {
  EXPECT_EQ(*KendallTau({{"a", "b", "c"}}, {{"a", "b", "c"}}), 1.0);
  EXPECT_EQ(*KendallTau({{"a", "b", "c", "d"}}, {{"d", "c", "b", "a"}}), -1.0);
}

TEST(KendallTauTest, HandComputedAcrossLists) {
  // List 1: ranks of (b, a, c) in (a, b, c) = (1, 0, 2): 1 inversion, 3 * 2 = 6.
  // List 2: ranks of (z, y, x, w) in (w, x, y, z) = (3, 2, 1, 0): 6, 4 * 3 = 12.
  // List 3: one item: 0 and 0.
  EXPECT_EQ(*KendallTau(Lists{{"a", "b", "c"}, {"w", "x", "y", "z"}, {"q"}},
                        Lists{{"b", "a", "c"}, {"z", "y", "x", "w"}, {"q"}}),
            1.0 - 4.0 * 7.0 / 18.0);
}

TEST(KendallTauTest, RepeatedItemsTakeTheFirstPositionAndTiesAreNotInversions) {
  // ranks of (a, a, b) in (a, b, a): (0, 0, 1): no inversion.
  EXPECT_EQ(*KendallTau({{"a", "b", "a"}}, {{"a", "a", "b"}}), 1.0);
  // ranks of (b, a, a) in (a, a, b): (2, 0, 0): 2 inversions; 3 * 2 = 6.
  EXPECT_EQ(*KendallTau({{"a", "a", "b"}}, {{"b", "a", "a"}}), 1.0 - 8.0 / 6.0);
}

TEST(KendallTauTest, ListsOfOtherLengthsFollowUpstream) {
  // n comes from the ground truth; inversions from the prediction's ranks.
  EXPECT_EQ(*KendallTau({{"a", "b", "c"}}, {{"c", "a"}}), 1.0 - 4.0 / 6.0);
  EXPECT_EQ(*KendallTau({{"a", "b"}}, {{}}), 1.0);
}

TEST(KendallTauTest, Errors) {
  EXPECT_THAT(std::string(KendallTau({{"a", "b"}}, {{"a", "c"}}).status().message()),
              HasSubstr("'c' is not in list"));
  EXPECT_THAT(std::string(KendallTau({{"a"}, {}}, {{"a"}, {}}).status().message()),
              HasSubstr("division by zero"));
  EXPECT_THAT(std::string(KendallTau({}, {}).status().message()), HasSubstr("division by zero"));
  EXPECT_FALSE(KendallTau({{"a", "b"}}, {}).ok());
}

TEST(KendallTauTest, LargeListIsFastAndExact) {
  // A reversed list of 100000 items: every pair inverted: exactly -1.
  std::vector<std::string> forward, backward;
  for (int i = 0; i < 100000; ++i) forward.push_back(std::to_string(i));
  backward.assign(forward.rbegin(), forward.rend());
  EXPECT_EQ(*KendallTau({forward}, {backward}), -1.0);
  // One adjacent swap: 1 - 4 / (n (n - 1)), rounded as Python divides.
  std::swap(backward[0], backward[1]);
  std::vector<std::string> swapped = forward;
  std::swap(swapped[0], swapped[1]);
  EXPECT_EQ(*KendallTau({forward}, {swapped}), 1.0 - 4.0 / (100000.0 * 99999.0));
}

}  // namespace
}  // namespace mlebench
