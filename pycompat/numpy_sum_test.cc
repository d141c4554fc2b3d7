#include "pycompat/numpy_sum.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(NumpySumTest, EmptySumsToZeroAndHasNoMean) {
  EXPECT_EQ(NumpySum({}), 0.0);
  EXPECT_TRUE(std::isnan(NumpyMean({})));
}

TEST(NumpySumTest, FewerThanEightAddLeftToRight) {
  // 1e16 + 1 rounds back to 1e16 (ties to even), so the 1 is lost.
  const std::vector<double> v = {1e16, 1.0, -1e16};
  EXPECT_EQ(NumpySum(v), 0.0);
}

TEST(NumpySumTest, EightAccumulatorsKeepSmallTerms) {
  // Sixteen values: r0 = 1e16 + 1 = 1e16 (lost), r1..r7 = 1 + 1 = 2 each,
  // then ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) = 1e16 + 14;
  // a left-to-right sum would lose every 1 and give 1e16.
  std::vector<double> v(16, 1.0);
  v[0] = 1e16;
  EXPECT_EQ(NumpySum(v), 1e16 + 14);
  double sequential = 0.0;
  for (double x : v) sequential += x;
  EXPECT_EQ(sequential, 1e16);
}

TEST(NumpySumTest, TailBeyondMultipleOfEightIsAddedLast) {
  // Nine values: the eight accumulators hold a[0..7]; a[8] joins at the end.
  std::vector<double> v = {1e16, 0, 0, 0, 0, 0, 0, 0, 1.0};
  EXPECT_EQ(NumpySum(v), 1e16);  // 1e16 + 1 ties to even
  v[1] = 1.0;                    // (1e16 + 1) + ... : still lost; + 1 at the end: lost again
  EXPECT_EQ(NumpySum(v), 1e16);
  v[1] = 2.0;
  EXPECT_EQ(NumpySum(v), 1e16 + 4);  // (1e16 + 2) + 1 ties to the even 1e16 + 4
}

TEST(NumpySumTest, BlocksOf8192AreSummedSeparately) {
  // Each block of 8192 ones sums exactly; a huge first value then swallows
  // the second block's total only if the blocks were merged differently.
  std::vector<double> v(2 * kNumpyReduceBlock, 1.0);
  EXPECT_EQ(NumpySum(v), 2.0 * kNumpyReduceBlock);
  EXPECT_EQ(NumpyMean(v), 1.0);
  // Sum of the first block's values 0.1 added pairwise, then the second's.
  std::vector<double> w(kNumpyReduceBlock + 3, 0.1);
  const double first = NumpySum(absl::Span<const double>(w).subspan(0, kNumpyReduceBlock));
  EXPECT_EQ(NumpySum(w), (0.0 + first) + ((0.1 + 0.1) + 0.1));
}

TEST(NumpyStreamSumTest, EqualsNumpySumOfTheSameValues) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> value(-1e6, 1e6);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{129}, kNumpyReduceBlock,
                   kNumpyReduceBlock + 1, 3 * kNumpyReduceBlock + 17}) {
    std::vector<double> v(n);
    NumpyStreamSum stream;
    for (double& x : v) {
      x = value(rng);
      stream.Add(x);
    }
    EXPECT_EQ(stream.Sum(), NumpySum(v)) << n << " values";
  }
}

// The same as NumpySum of the gathered values, for short inputs, inputs of
// whole and partial blocks, and long ones (summed on two threads); orders
// that permute the values, and ones that repeat or skip some.
TEST(NumpySumInOrderTest, EqualsNumpySumOfTheGatheredValues) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-1e6, 1e6);
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{129}, kNumpyReduceBlock,
                   kNumpyReduceBlock + 1, 3 * kNumpyReduceBlock + 17, 16 * kNumpyReduceBlock,
                   40 * kNumpyReduceBlock + 5}) {
    std::vector<double> values(n + 3);
    for (double& x : values) x = value(rng);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::shuffle(order.begin(), order.end(), rng);
    const auto gathered_sum = [&] {
      std::vector<double> gathered;
      for (const size_t i : order) gathered.push_back(values[i]);
      return NumpySum(gathered);
    };
    EXPECT_EQ(NumpySumInOrder(values, order), gathered_sum()) << n << " values";
    for (size_t& i : order) i = rng() % values.size();  // repeats, and some never taken
    EXPECT_EQ(NumpySumInOrder(values, order), gathered_sum()) << n << " values, repeats";
  }
}

TEST(NumpySumTest, MeanDividesOnce) {
  const std::vector<double> v = {0.1, 0.2, 0.4};
  EXPECT_EQ(NumpyMean(v), ((0.1 + 0.2) + 0.4) / 3.0);
}

}  // namespace
}  // namespace mlebench
