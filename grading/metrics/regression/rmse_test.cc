#include "grading/metrics/regression/rmse.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

Column Floats(std::vector<double> values) {
  Column c{"y", Dtype::kFloat64, {}};
  for (double v : values) c.cells.emplace_back(v);
  return c;
}

TEST(RootMeanSquaredErrorTest, HandComputedValues) {
  // Squares 0.25, 0.25, 0, 1: mean 0.375 exactly.
  EXPECT_EQ(
      *RootMeanSquaredError(std::vector<double>{3, -0.5, 2, 7}, std::vector<double>{2.5, 0, 2, 8}),
      std::sqrt(0.375));
  // Kaggle's worked example: sqrt(9 / 2).
  EXPECT_EQ(*RootMeanSquaredError(std::vector<double>{12.5, 14.0}, std::vector<double>{12.5, 11.0}),
            std::sqrt(4.5));
  EXPECT_EQ(*RootMeanSquaredError(std::vector<double>{1.5}, std::vector<double>{1.5}), 0.0);
  // sklearn: mean_squared_error([1, 2, 3], [1, 2, 4], squared=False).
  EXPECT_EQ(*RootMeanSquaredError(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2, 4}),
            0.5773502691896257);
}

TEST(RootMeanSquaredErrorTest, OverflowIsInfinityNotAnError) {
  EXPECT_EQ(*RootMeanSquaredError(std::vector<double>{1e200, 0}, std::vector<double>{-1e200, 0}),
            std::numeric_limits<double>::infinity());
}

TEST(RootMeanSquaredErrorTest, ChecksInSklearnsOrder) {
  const double nan = std::nan("");
  EXPECT_EQ(
      RootMeanSquaredError(std::vector<double>{1, 2}, std::vector<double>{nan}).status().message(),
      "Found input variables with inconsistent numbers of samples: [2, 1]");
  EXPECT_EQ(RootMeanSquaredError(std::vector<double>{nan}, std::vector<double>{INFINITY})
                .status()
                .message(),
            "Input contains NaN.");
  EXPECT_THAT(RootMeanSquaredError(std::vector<double>{1}, std::vector<double>{-INFINITY})
                  .status()
                  .message(),
              HasSubstr("infinity"));
  EXPECT_EQ(RootMeanSquaredError(std::vector<double>{}, std::vector<double>{}).status().message(),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
}

TEST(RootMeanSquaredErrorTest, ColumnsOfEveryDtype) {
  const Column answers = Floats({1.0, 0.0, 2.0});
  // Bools and ints are numbers next to floats.
  EXPECT_EQ(*RootMeanSquaredError(answers, Column{"y", Dtype::kBool, {true, false, true}}),
            std::sqrt(1.0 / 3.0));
  // Two bool columns: numpy cannot subtract them (sklearn 1.5.1 raises
  // TypeError; 1.6 casts to float64 first).
  EXPECT_THAT(RootMeanSquaredError(Column{"y", Dtype::kBool, {true, false}},
                                   Column{"y", Dtype::kBool, {false, false}})
                  .status()
                  .message(),
              HasSubstr("numpy boolean subtract"));
  // int64 and bool columns: int64 arithmetic, wrapping on overflow (values
  // from sklearn 1.5.1: 2**62 - -2**62 wraps to -2**63, whose square wraps
  // to 0; 3037000500**2 wraps negative).
  const auto ints = [](std::vector<int64_t> v) {
    Column c{"y", Dtype::kInt64, {}};
    for (int64_t x : v) c.cells.emplace_back(x);
    return c;
  };
  EXPECT_EQ(*RootMeanSquaredError(ints({int64_t{1} << 62, 3}), ints({-(int64_t{1} << 62), 1})),
            1.4142135623730951);
  EXPECT_EQ(*RootMeanSquaredError(Column{"y", Dtype::kBool, {true, false, true}}, ints({3, 0, -1})),
            1.632993161855452);
  EXPECT_TRUE(std::isnan(*RootMeanSquaredError(ints({3037000500, 0}), ints({0, 0}))));
  EXPECT_EQ(*RootMeanSquaredError(answers,
                                  Column{"y", Dtype::kInt64, {int64_t{1}, int64_t{0}, int64_t{2}}}),
            0.0);
  // Numeric text in an object column converts; other text does not.
  EXPECT_EQ(*RootMeanSquaredError(
                answers, Column{"y", Dtype::kObject, {std::string("1"), 0.0, std::string("2_0")}}),
            std::sqrt(18.0 * 18.0 / 3.0));
  EXPECT_EQ(RootMeanSquaredError(
                answers, Column{"y", Dtype::kObject, {std::string("1"), std::string("x"), 2.0}})
                .status()
                .message(),
            "could not convert string to float: 'x'");
  // A bool column with a hole is object: True, NaN, False.
  EXPECT_EQ(
      RootMeanSquaredError(answers, Column{"y", Dtype::kObject, {true, std::monostate{}, false}})
          .status()
          .message(),
      "Input contains NaN.");
  // Length is checked before anything is converted.
  EXPECT_THAT(RootMeanSquaredError(answers, Column{"y", Dtype::kObject, {std::string("x")}})
                  .status()
                  .message(),
              HasSubstr("inconsistent numbers of samples: [3, 1]"));
}

}  // namespace
}  // namespace mlebench
