#include "grading/metrics/correlation/spearman_correlation.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Rho(const std::vector<double>& x, const std::vector<double>& y) {
  absl::StatusOr<double> r = SpearmanCorrelation(x, y);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : -99;
}

Column Col(Dtype dtype, std::vector<Cell> cells) { return Column{"c", dtype, std::move(cells)}; }

TEST(SpearmanCorrelationTest, MonotoneRelationsAreOneOrMinusOne) {
  EXPECT_EQ(Rho({1, 2, 3, 4}, {10, 20, 30, 1000}), 1.0);
  EXPECT_EQ(Rho({1, 2, 3, 4}, {4, 3, 2, -kInf}), -1.0);
  // numpy's rounding, as scipy returns it.
  EXPECT_EQ(Rho({1, 2}, {5, 3}), -0.9999999999999999);
}

TEST(SpearmanCorrelationTest, HandComputedWithTies) {
  // x ranks 1.5, 1.5, 3; y ranks 1, 2, 3. Centred: (-0.5, -0.5, 1) and
  // (-1, 0, 1): Sxy = 1.5, Sxx = 1.5, Syy = 2, so rho = 1.5 / sqrt(3) =
  // sqrt(3) / 2 (scipy: 0.8660254037844387).
  EXPECT_DOUBLE_EQ(Rho({1, 1, 2}, {1, 2, 3}), std::sqrt(3.0) / 2);
  EXPECT_EQ(Rho({1, 1, 2}, {1, 2, 3}), 0.8660254037844387);
  // Ranks (3, 1, 2) against (1, 2, 3): Sxy = -1, Sxx = Syy = 2: -0.5.
  EXPECT_DOUBLE_EQ(Rho({kInf, 1, 2}, {1, 2, 3}), -0.5);
}

TEST(SpearmanCorrelationTest, UndefinedCasesAreNaN) {
  EXPECT_TRUE(std::isnan(Rho({}, {})));
  EXPECT_TRUE(std::isnan(Rho({1}, {2})));
  EXPECT_TRUE(std::isnan(Rho({3, 3, 3}, {1, 2, 3})));
  EXPECT_TRUE(std::isnan(Rho({1, 2, 3}, {kInf, kInf, kInf})));
  EXPECT_TRUE(std::isnan(Rho({kNaN, 1, 2}, {1, 2, 3})));
  EXPECT_TRUE(std::isnan(Rho({1, 2, 3}, {1, kNaN, 3})));
  // NaN never equals itself, so an all-NaN column is "not constant", then NaN.
  EXPECT_TRUE(std::isnan(Rho({kNaN, kNaN}, {1, 2})));
  // scipy 1.14's NaN check is isnan(max): +inf and -inf rank, even both
  // present, and finite values whose sum would overflow rank too (scipy 1.10
  // summed everything and gave NaN for the first two). Values from scipy
  // 1.14.1.
  EXPECT_EQ(Rho({kInf, 1, 2}, {1, -kInf, 3}), 0.5);
  EXPECT_EQ(Rho({1e308, 1e308, -1e308, -1e308}, {1, 2, 3, 4}), -0.8944271909999159);
  EXPECT_EQ(Rho({1e308, 1e308, 1e308, -1e308}, {1, 2, 3, 4}), -0.7745966692414834);
  // In an object array values are checked one by one: infinities rank.
  EXPECT_EQ(*SpearmanCorrelation(
                Col(Dtype::kObject, {std::string("a"), std::string("b"), std::string("c")}),
                Col(Dtype::kFloat64, {kInf, 1.0, -kInf})),
            -1.0);
}

TEST(SpearmanCorrelationTest, DifferentLengthsAreAnError) {
  EXPECT_FALSE(SpearmanCorrelation(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2}).ok());
  EXPECT_FALSE(SpearmanCorrelation(Col(Dtype::kInt64, {int64_t{1}}), Col(Dtype::kInt64, {})).ok());
}

TEST(SpearmanCorrelationTest, ColumnsStackAsNumpyDoes) {
  const int64_t big = int64_t{1} << 60;
  const Column ints = Col(Dtype::kInt64, {big, big + 1, big + 2});
  // Two int64 columns rank exactly...
  EXPECT_EQ(*SpearmanCorrelation(ints, Col(Dtype::kInt64, {int64_t{1}, int64_t{2}, int64_t{3}})),
            1.0);
  // ...but next to float64 the large values become one float: constant.
  EXPECT_TRUE(std::isnan(*SpearmanCorrelation(ints, Col(Dtype::kFloat64, {1.0, 2.0, 3.0}))));
  // Bools are 0 and 1.
  EXPECT_DOUBLE_EQ(*SpearmanCorrelation(Col(Dtype::kBool, {false, false, true}),
                                        Col(Dtype::kFloat64, {1.0, 2.0, 3.0})),
                   std::sqrt(3.0) / 2);
}

TEST(SpearmanCorrelationTest, TextRanksInPythonOrder) {
  // "ab" < "x" < "y": ranks 2, 3, 1 against 1, 2, 3: -0.5 (as scipy).
  const Column text = Col(Dtype::kObject, {std::string("x"), std::string("y"), std::string("ab")});
  EXPECT_DOUBLE_EQ(
      *SpearmanCorrelation(text, Col(Dtype::kInt64, {int64_t{1}, int64_t{2}, int64_t{3}})), -0.5);
  // A missing value is NaN; text mixed with numbers cannot be sorted.
  EXPECT_TRUE(std::isnan(
      *SpearmanCorrelation(Col(Dtype::kObject, {std::string("x"), Cell(), std::string("ab")}),
                           Col(Dtype::kFloat64, {1.0, 2.0, 3.0}))));
  EXPECT_FALSE(SpearmanCorrelation(Col(Dtype::kObject, {std::string("x"), int64_t{2}, 1.5}),
                                   Col(Dtype::kFloat64, {1.0, 2.0, 3.0}))
                   .ok());
  // Constant text: NaN before any sorting.
  EXPECT_TRUE(
      std::isnan(*SpearmanCorrelation(Col(Dtype::kObject, {std::string("x"), std::string("x")}),
                                      Col(Dtype::kFloat64, {1.0, 2.0}))));
}

TEST(SpearmanCorrelationTest, LargeInputIsExactAndFast) {
  std::vector<double> x(100000), y(100000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<double>(i % 1000);
    y[i] = static_cast<double>((i * 7919) % 100003);
  }
  const double r = Rho(x, y);
  EXPECT_GT(r, -1);
  EXPECT_LT(r, 1);
  EXPECT_EQ(Rho(x, x), 0.9999999999999999);  // scipy's value
}

}  // namespace
}  // namespace mlebench
