#include "pycompat/numpy_random.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;

// Expected values below were printed by numpy 1.24's RandomState.

TEST(NumpyRandomStateTest, RawOutputsMatchMt19937) {
  NumpyRandomState rng(0);
  EXPECT_EQ(rng.NextUint32(), 2357136044u);
  EXPECT_EQ(rng.NextUint32(), 2546248239u);
  // next_uint64 puts the first draw in the high half.
  EXPECT_EQ(rng.NextUint64(), (uint64_t{3071714933u} << 32) | 3626093760u);
}

TEST(NumpyRandomStateTest, RandomSample) {
  NumpyRandomState rng(0);
  EXPECT_EQ(rng.RandomSample(), 0.5488135039273248);
  EXPECT_EQ(rng.RandomSample(), 0.7151893663724195);
}

TEST(NumpyRandomStateTest, Permutation) {
  EXPECT_THAT(NumpyRandomState(0).Permutation(10), ElementsAre(2, 8, 4, 9, 1, 6, 7, 3, 0, 5));
  EXPECT_THAT(NumpyRandomState(4294967295u).Permutation(5), ElementsAre(4, 1, 0, 2, 3));
  EXPECT_THAT(NumpyRandomState(0).Permutation(0), ElementsAre());
  EXPECT_THAT(NumpyRandomState(0).Permutation(1), ElementsAre(0));
}

TEST(NumpyRandomStateTest, ShuffleOfOneElementDrawsNothing) {
  NumpyRandomState a(7);
  NumpyRandomState b(7);
  std::vector<int> one = {5};
  a.Shuffle(std::span<int>(one));
  EXPECT_EQ(a.NextUint32(), b.NextUint32());
}

TEST(NumpyRandomStateTest, RandInt) {
  NumpyRandomState rng(42);
  absl::StatusOr<std::vector<int64_t>> values = rng.RandInt(0, 10, 5);
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_THAT(*values, ElementsAre(6, 3, 7, 4, 6));
}

TEST(NumpyRandomStateTest, RandIntSingleValueRangeDrawsNothing) {
  NumpyRandomState a(3);
  NumpyRandomState b(3);
  absl::StatusOr<int64_t> value = a.RandInt(-4, -3);
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, -4);
  EXPECT_EQ(a.NextUint32(), b.NextUint32());
}

TEST(NumpyRandomStateTest, RandIntRejectsEmptyRange) {
  NumpyRandomState rng(0);
  EXPECT_FALSE(rng.RandInt(5, 5).ok());
  EXPECT_FALSE(rng.RandInt(5, 1).ok());
}

TEST(NumpyRandomStateTest, CreateChecksSeedRange) {
  EXPECT_TRUE(NumpyRandomState::Create(0).ok());
  EXPECT_TRUE(NumpyRandomState::Create(4294967295).ok());
  EXPECT_FALSE(NumpyRandomState::Create(4294967296).ok());
  EXPECT_FALSE(NumpyRandomState::Create(-1).ok());
}

}  // namespace
}  // namespace mlebench
