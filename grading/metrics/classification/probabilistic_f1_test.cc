#include "grading/metrics/classification/probabilistic_f1.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

Column Ints(std::vector<int64_t> values) {
  Column c{.name = "y", .dtype = Dtype::kInt64};
  for (int64_t v : values) c.cells.emplace_back(v);
  return c;
}

Column Floats(std::vector<double> values) {
  Column c{.name = "p", .dtype = Dtype::kFloat64};
  for (double v : values) c.cells.emplace_back(v);
  return c;
}

TEST(ProbabilisticFBetaTest, HandComputed) {
  // ctp = 0.8 + 0.6 = 1.4, cfp = 0.2; precision 1.4 / 1.6 = 0.875, recall 0.7.
  const absl::StatusOr<double> f1 =
      ProbabilisticFBeta(Ints({1, 0, 1, 0}), Floats({0.8, 0.2, 0.6, 0.0}), 1.0);
  ASSERT_TRUE(f1.ok()) << f1.status();
  EXPECT_DOUBLE_EQ(*f1, 2 * 0.875 * 0.7 / (0.875 + 0.7));
  // Perfect hard predictions.
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0, 1}), Floats({1, 0, 1}), 1.0), 1.0);
  // Beta 2 weighs recall: precision 0.5, recall 1.
  EXPECT_DOUBLE_EQ(*ProbabilisticFBeta(Ints({1, 0}), Floats({1, 1}), 2.0), 5 * 0.5 / (4 * 0.5 + 1));
}

TEST(ProbabilisticFBetaTest, ClipsPredictions) {
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0, 1}), Floats({7, -3, 1.5}), 1.0), 1.0);
}

TEST(ProbabilisticFBetaTest, NanPredictionsAndZeroPrecisionScoreZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0}), Floats({0.9, nan}), 1.0), 0.0);
  // numpy zeros: 0.0 / 0.0 is NaN with a warning, not an error.
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0}), Floats({0.0, 0.0}), 1.0), 0.0);
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0}), Floats({0.0, 0.9}), 1.0), 0.0);
}

TEST(ProbabilisticFBetaTest, PythonZeroDivisionRaises) {
  // Every prediction negative: both sums are the Python int 0.
  EXPECT_FALSE(ProbabilisticFBeta(Ints({1, 0}), Floats({-0.1, -2}), 1.0).ok());
  // One numpy zero among them keeps the sum a numpy value.
  EXPECT_EQ(*ProbabilisticFBeta(Ints({1, 0}), Floats({-0.1, 0.0}), 1.0), 0.0);
  // Object columns hold Python numbers: 0.0 / 0.0 raises too.
  Column object_zeros{.name = "p", .dtype = Dtype::kObject, .cells = {Cell(0.0), Cell(int64_t{0})}};
  EXPECT_FALSE(ProbabilisticFBeta(Ints({1, 0}), object_zeros, 1.0).ok());
  // No positive label.
  EXPECT_FALSE(ProbabilisticFBeta(Ints({0, 0}), Floats({0.5, 0.5}), 1.0).ok());
  EXPECT_FALSE(ProbabilisticFBeta(Ints({}), Floats({}), 1.0).ok());
}

TEST(ProbabilisticFBetaTest, TextAndLengthMismatchRaise) {
  Column text{.name = "p", .dtype = Dtype::kObject, .cells = {Cell(0.5), Cell(std::string("x"))}};
  EXPECT_FALSE(ProbabilisticFBeta(Ints({1, 0}), text, 1.0).ok());
  EXPECT_FALSE(ProbabilisticFBeta(Ints({1, 0}), Floats({0.5}), 1.0).ok());
}

TEST(ProbabilisticFBetaTest, LabelTruthiness) {
  Column labels{.name = "y", .dtype = Dtype::kObject,
                .cells = {Cell(std::monostate{}), Cell(std::string("")), Cell(true)}};
  // NaN is truthy, "" is not: ctp = 0.5 + 0.5, cfp = 0.5.
  EXPECT_DOUBLE_EQ(*ProbabilisticFBeta(labels, Floats({0.5, 0.5, 0.5}), 1.0),
                   2 * (2.0 / 3) * 0.5 / (2.0 / 3 + 0.5));
}

}  // namespace
}  // namespace mlebench
