#include "grading/metrics/vision/dice.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

PixelRuns Mask(std::string_view rle, int64_t pixel_count = 100) {
  return *DecodeRle(rle, pixel_count);
}

TEST(DiceCoefficientTest, CountsOverlap) {
  // |p| = 4, |t| = 6, overlap 2: 4 / 10.
  EXPECT_DOUBLE_EQ(*DiceCoefficient(Mask("1 4"), Mask("3 6"), 1.0), 0.4);
  EXPECT_EQ(*DiceCoefficient(Mask("1 4 50 2"), Mask("1 4 50 2"), 1.0), 1.0);
  EXPECT_EQ(*DiceCoefficient(Mask("1 4"), Mask("5 4"), 1.0), 0.0);
  EXPECT_EQ(*DiceCoefficient(Mask(""), Mask("5 4"), 1.0), 0.0);
}

TEST(DiceCoefficientTest, BothEmptyValue) {
  EXPECT_EQ(*DiceCoefficient(Mask(""), Mask(""), 1.0), 1.0);
  EXPECT_TRUE(
      std::isnan(*DiceCoefficient(Mask(""), Mask(""), std::numeric_limits<double>::quiet_NaN())));
}

TEST(DiceCoefficientTest, ShapesMustAgree) {
  EXPECT_FALSE(DiceCoefficient(Mask("1 1", 10), Mask("1 1", 11), 1.0).ok());
}

TEST(GlobalDiceCoefficientTest, PoolsCountsOverImages) {
  // Image 1: |p| = 4, |t| = 6, overlap 2. Image 2: |p| = 0, |t| = 3.
  // Global: 2 * 2 / (4 + 6 + 0 + 3) = 4 / 13 (the mean of per-image Dice
  // would be (0.4 + 0) / 2).
  const std::vector<PixelRuns> predicted = {Mask("1 4"), Mask("")};
  const std::vector<PixelRuns> truth = {Mask("3 6"), Mask("7 3")};
  EXPECT_DOUBLE_EQ(*GlobalDiceCoefficient(predicted, truth, 1.0), 4.0 / 13.0);
  EXPECT_EQ(*GlobalDiceCoefficient(truth, truth, 0.0), 1.0);
}

TEST(GlobalDiceCoefficientTest, EmptyImagesOnlyCountTowardsNothing) {
  const std::vector<PixelRuns> empty = {Mask(""), Mask("", 5)};
  const std::vector<PixelRuns> truth = {Mask("1 2"), Mask("", 5)};
  const std::vector<PixelRuns> predicted = {Mask("1 2"), Mask("1 1", 5)};
  EXPECT_TRUE(std::isnan(
      *GlobalDiceCoefficient(empty, empty, std::numeric_limits<double>::quiet_NaN())));
  EXPECT_EQ(*GlobalDiceCoefficient(empty, empty, 1.0), 1.0);
  EXPECT_TRUE(std::isnan(*GlobalDiceCoefficient({}, {}, std::numeric_limits<double>::quiet_NaN())));
  EXPECT_DOUBLE_EQ(*GlobalDiceCoefficient(predicted, truth, 1.0), 4.0 / 5.0);
}

TEST(GlobalDiceCoefficientTest, SizesMustAgree) {
  const std::vector<PixelRuns> one = {Mask("1 1")};
  const std::vector<PixelRuns> two = {Mask("1 1"), Mask("1 1")};
  const std::vector<PixelRuns> other_size = {Mask("1 1", 11)};
  EXPECT_FALSE(GlobalDiceCoefficient(one, two, 1.0).ok());
  EXPECT_FALSE(GlobalDiceCoefficient(one, other_size, 1.0).ok());
}

}  // namespace
}  // namespace mlebench
