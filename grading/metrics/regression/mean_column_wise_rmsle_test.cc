#include "grading/metrics/regression/mean_column_wise_rmsle.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "grading/metrics/regression/rmsle.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

Column Floats(std::vector<double> values) {
  Column c{"y", Dtype::kFloat64, {}};
  for (double v : values) c.cells.emplace_back(v);
  return c;
}

TEST(MeanColumnWiseRmsleTest, AveragesTheColumnsRmsle) {
  const Column true_a = Floats({0.1, 0.2}), pred_a = Floats({0.15, 0.1});
  const Column true_b = Floats({1.0, 2.0}), pred_b = Floats({1.5, 2.5});
  // sklearn: (sqrt(msle(a)) + sqrt(msle(b))) / 2.
  EXPECT_EQ(*MeanColumnWiseRmsle({&true_a, &true_b}, {&pred_a, &pred_b}), 0.1304327639456735);
  EXPECT_EQ(
      *MeanColumnWiseRmsle({&true_a, &true_b}, {&pred_a, &pred_b}),
      (*RootMeanSquaredLogError(true_a, pred_a) + *RootMeanSquaredLogError(true_b, pred_b)) / 2);
  EXPECT_EQ(*MeanColumnWiseRmsle({&true_b}, {&pred_b}), *RootMeanSquaredLogError(true_b, pred_b));
  EXPECT_EQ(*MeanColumnWiseRmsle({&true_a, &true_b}, {&true_a, &true_b}), 0.0);
}

TEST(MeanColumnWiseRmsleTest, FirstFailingColumnDecides) {
  const Column good = Floats({1.0, 2.0});
  const Column negative = Floats({1.0, -2.0});
  const Column with_nan = Floats({1.0, std::nan("")});
  EXPECT_THAT(MeanColumnWiseRmsle({&good, &good}, {&with_nan, &negative}).status().message(),
              HasSubstr("NaN"));
  EXPECT_THAT(MeanColumnWiseRmsle({&good, &good}, {&negative, &with_nan}).status().message(),
              HasSubstr("negative values"));
}

TEST(MeanColumnWiseRmsleTest, ColumnCountsMustMatch) {
  const Column a = Floats({1.0});
  EXPECT_FALSE(MeanColumnWiseRmsle({}, {}).ok());
  EXPECT_FALSE(MeanColumnWiseRmsle({&a, &a}, {&a}).ok());
}

}  // namespace
}  // namespace mlebench
