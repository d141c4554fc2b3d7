#include "grading/metrics/dice.h"

#include <cmath>
#include <limits>

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

}  // namespace
}  // namespace mlebench
