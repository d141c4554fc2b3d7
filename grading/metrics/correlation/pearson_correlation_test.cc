#include "grading/metrics/correlation/pearson_correlation.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(PearsonCorrelationTest, HandComputed) {
  // x centred: -1, 0, 1; y centred: -2, 1, 1 -> (2 + 0 + 1) / (sqrt(2) sqrt(6)).
  EXPECT_NEAR(*PearsonCorrelation({1.0, 2.0, 3.0}, {0.0, 3.0, 3.0}), 3.0 / std::sqrt(12.0),
              1e-15);
  // Perfect correlation is one ulp short of 1 in scipy 1.14.1 too (values
  // from the real pearsonr): the norm is max|xm| * norm(xm / max|xm|).
  EXPECT_EQ(*PearsonCorrelation({1.0, 2.0, 3.0, 4.0}, {2.0, 4.0, 6.0, 8.0}), 0.9999999999999999);
  EXPECT_EQ(*PearsonCorrelation({1.0, 2.0, 3.0, 4.0}, {8.0, 6.0, 4.0, 2.0}), -0.9999999999999999);
  // Scaling by the largest magnitude keeps huge values finite.
  EXPECT_NEAR(*PearsonCorrelation({1e300, -1e300, 5e299}, {1.0, -1.0, 0.5}), 1.0, 1e-15);
}

// scipy 1.14.1: sign(x1 - x0) * sign(y1 - y0), before any constant check.
TEST(PearsonCorrelationTest, TwoValuesGiveTheProductOfSigns) {
  EXPECT_EQ(*PearsonCorrelation({0.0, 1.0}, {5.0, 7.0}), 1.0);
  EXPECT_EQ(*PearsonCorrelation({0.0, 1.0}, {7.0, 5.0}), -1.0);
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({0.0, 1.0}, {kNaN, 5.0})));
  EXPECT_EQ(*PearsonCorrelation({0.0, 1.0}, {kInf, 5.0}), -1.0);
  // Equal values: 0, with the sign of the product (-1 * 0 is -0).
  EXPECT_EQ(*PearsonCorrelation({3.0, 3.0}, {1.0, 2.0}), 0.0);
  EXPECT_TRUE(std::signbit(*PearsonCorrelation({1.0, 0.0}, {2.0, 2.0})));
}

TEST(PearsonCorrelationTest, ConstantOrNonFiniteInputsAreNaN) {
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({1.0, 2.0, 3.0}, {0.0, 0.0, 0.0})));
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({4.0, 4.0, 4.0}, {0.0, 1.0, 3.0})));
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({0.0, -0.0, 0.0}, {0.0, 1.0, 3.0})));
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({1.0, 2.0, 3.0}, {0.0, kNaN, 3.0})));
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({1.0, 2.0, 3.0}, {0.0, kInf, 3.0})));
  // A NaN first value makes no input "constant" (NaN equals nothing).
  EXPECT_TRUE(std::isnan(*PearsonCorrelation({kNaN, kNaN, kNaN}, {0.0, 1.0, 3.0})));
}

TEST(PearsonCorrelationTest, Errors) {
  EXPECT_EQ(PearsonCorrelation({1.0, 2.0}, {1.0, 2.0, 3.0}).status().message(),
            "`x` and `y` must have the same length along `axis`.");
  EXPECT_EQ(PearsonCorrelation({1.0}, {1.0}).status().message(),
            "`x` and `y` must have length at least 2.");
  EXPECT_FALSE(PearsonCorrelation(std::vector<double>{}, std::vector<double>{}).ok());
}

TEST(PearsonCorrelationTest, Columns) {
  const Column truth{"score", Dtype::kFloat64, {0.0, 0.5, 1.0}};
  EXPECT_NEAR(*PearsonCorrelation(truth, Column{"score", Dtype::kInt64, {int64_t{0}, int64_t{1},
                                                                         int64_t{2}}}),
              1.0, 1e-15);
  EXPECT_NEAR(*PearsonCorrelation(truth, Column{"score", Dtype::kBool, {true, false, false}}),
              -std::sqrt(3.0) / 2.0, 1e-15);
  // Missing float cells are NaN.
  EXPECT_TRUE(std::isnan(
      *PearsonCorrelation(truth, Column{"score", Dtype::kFloat64, {0.0, kNaN, 1.0}})));
  // Object columns (text, or bools with holes) are rejected as scipy >= 1.14 does.
  EXPECT_FALSE(PearsonCorrelation(truth, Column{"score", Dtype::kObject,
                                                {std::string("a"), std::string("a"),
                                                 std::string("a")}})
                   .ok());
  EXPECT_FALSE(
      PearsonCorrelation(truth, Column{"score", Dtype::kObject, {true, std::monostate{}, false}})
          .ok());
}

}  // namespace
}  // namespace mlebench
