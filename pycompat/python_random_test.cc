#include "pycompat/python_random.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Expected values printed by CPython 3.11 (/usr/bin/python3).

TEST(PythonRandomTest, RandomAndGetRandBitsMatchCPython) {
  PythonRandom rng(0);
  EXPECT_EQ(rng.Random(), 0.8444218515250481);
  EXPECT_EQ(*rng.GetRandBits(64), 16422101724900707500ull);
  EXPECT_EQ(*rng.GetRandBits(7), 53u);
  EXPECT_EQ(*rng.GetRandBits(0), 0u);
}

TEST(PythonRandomTest, SeedsWiderThan32BitsUseTwoKeyWords) {
  PythonRandom rng((int64_t{1} << 40) + 3);
  EXPECT_EQ(rng.Random(), 0.21978710637116716);
}

TEST(PythonRandomTest, SeedRestartsTheStream) {
  PythonRandom rng(7);
  const double first = rng.Random();
  rng.Random();
  rng.Seed(7);
  EXPECT_EQ(rng.Random(), first);
}

TEST(PythonRandomTest, NegativeSeedIsItsAbsoluteValue) {
  PythonRandom a(-5);
  PythonRandom b(5);
  EXPECT_EQ(a.Random(), b.Random());
  PythonRandom c(-5);
  EXPECT_EQ(*c.RandInt(1, 6), 5);
  EXPECT_EQ(*c.RandRange(10, 0, -3), 4);
  EXPECT_EQ(*c.ChoiceIndex(3), 2);  // 'c' of 'abc'
}

TEST(PythonRandomTest, ShuffleMatchesCPython) {
  std::vector<int> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  PythonRandom(0).Shuffle(x);
  EXPECT_EQ(x, (std::vector<int>{7, 8, 1, 5, 3, 4, 2, 0, 9, 6}));
  std::vector<std::string> empty;
  PythonRandom(0).Shuffle(empty);
  EXPECT_TRUE(empty.empty());
}

TEST(PythonRandomTest, SampleOfSmallRangeUsesThePool) {
  // random.seed(0); random.sample(range(1, 21), 20)
  std::vector<int> population;
  for (int i = 1; i <= 20; ++i) population.push_back(i);
  PythonRandom rng(0);
  absl::StatusOr<std::vector<int>> sample = rng.Sample(population, 20);
  ASSERT_TRUE(sample.ok()) << sample.status();
  EXPECT_EQ(*sample, (std::vector<int>{13, 14, 2, 9, 16, 7, 20, 5, 8, 6, 10, 4, 3, 12, 18, 1,
                                       15, 17, 19, 11}));
}

TEST(PythonRandomTest, SampleOfLargeRangeUsesTheSet) {
  PythonRandom rng(0);
  absl::StatusOr<std::vector<int64_t>> sample = rng.SampleIndices(1000, 10);
  ASSERT_TRUE(sample.ok());
  EXPECT_EQ(*sample, (std::vector<int64_t>{864, 394, 776, 911, 430, 41, 265, 988, 523, 497}));
}

TEST(PythonRandomTest, SampleSizeOutOfRangeIsAnError) {
  PythonRandom rng(0);
  EXPECT_FALSE(rng.SampleIndices(3, 4).ok());
  EXPECT_FALSE(rng.SampleIndices(3, -1).ok());
  EXPECT_TRUE(rng.SampleIndices(0, 0).ok());
  EXPECT_EQ(rng.SampleIndices(5, 0)->size(), 0u);
}

TEST(PythonRandomTest, EmptyRangesAndBadArgumentsAreErrors) {
  PythonRandom rng(0);
  EXPECT_FALSE(rng.RandRange(0).ok());
  EXPECT_FALSE(rng.RandRange(-3).ok());
  EXPECT_FALSE(rng.RandRange(5, 5).ok());
  EXPECT_FALSE(rng.RandRange(0, 10, 0).ok());
  EXPECT_FALSE(rng.RandRange(0, 10, -1).ok());
  EXPECT_FALSE(rng.RandInt(3, 2).ok());
  EXPECT_FALSE(rng.ChoiceIndex(0).ok());
  EXPECT_FALSE(rng.GetRandBits(-1).ok());
  EXPECT_FALSE(rng.GetRandBits(65).ok());
  EXPECT_TRUE(rng.RandRange(INT64_MIN, INT64_MAX).ok());  // 2**64 - 1 candidates
  EXPECT_FALSE(rng.RandInt(INT64_MIN, INT64_MAX).ok());  // 2**64 candidates
}

TEST(PythonRandomTest, RandRangeStaysInRange) {
  PythonRandom rng(3);
  for (int i = 0; i < 1000; ++i) {
    const int64_t v = *rng.RandRange(-7, 20, 3);
    EXPECT_GE(v, -7);
    EXPECT_LT(v, 20);
    EXPECT_EQ((v + 7) % 3, 0);
    const int64_t w = *rng.RandInt(INT64_MAX - 2, INT64_MAX);
    EXPECT_GE(w, INT64_MAX - 2);
  }
}

}  // namespace
}  // namespace mlebench
