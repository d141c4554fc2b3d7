#include "grading/metrics/regression/rmsle.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

constexpr char kNegative[] =
    "Root Mean Squared Logarithmic Error cannot be used when targets contain negative values.";

Column Floats(std::vector<double> values) {
  Column c{"y", Dtype::kFloat64, {}};
  for (double v : values) c.cells.emplace_back(v);
  return c;
}

TEST(RootMeanSquaredLogErrorTest, HandComputedValues) {
  // sklearn: sqrt(mean_squared_log_error([3, 5, 2.5, 7], [2.5, 5, 4, 8])).
  EXPECT_EQ(*RootMeanSquaredLogError(std::vector<double>{3, 5, 2.5, 7},
                                     std::vector<double>{2.5, 5, 4, 8}),
            0.19932416558108);
  // One row: |log(1 + 1) - log(1 + 0)| = ln 2.
  EXPECT_EQ(*RootMeanSquaredLogError(std::vector<double>{1.0}, std::vector<double>{0.0}),
            std::log(2.0));
  EXPECT_EQ(
      *RootMeanSquaredLogError(std::vector<double>{0.5, 0.25}, std::vector<double>{0.5, 0.25}),
      0.0);
}

TEST(RootMeanSquaredLogErrorTest, NegativeValuesAreRejectedZeroIsNot) {
  EXPECT_EQ(RootMeanSquaredLogError(std::vector<double>{1, 2}, std::vector<double>{1, -0.5})
                .status()
                .message(),
            kNegative);
  EXPECT_EQ(RootMeanSquaredLogError(std::vector<double>{-1e-300}, std::vector<double>{1})
                .status()
                .message(),
            kNegative);
  EXPECT_EQ(*RootMeanSquaredLogError(std::vector<double>{-0.0}, std::vector<double>{0.0}), 0.0);
}

TEST(RootMeanSquaredLogErrorTest, ChecksInSklearnsOrder) {
  // Length, then y_true's check_array, then y_pred's, then the sign.
  EXPECT_THAT(RootMeanSquaredLogError(std::vector<double>{-1, 2}, std::vector<double>{1})
                  .status()
                  .message(),
              HasSubstr("inconsistent numbers of samples: [2, 1]"));
  EXPECT_EQ(RootMeanSquaredLogError(Floats({-1, 2}), Floats({1, std::nan("")})).status().message(),
            "Input contains NaN.");
  EXPECT_EQ(RootMeanSquaredLogError(Floats({}), Floats({})).status().message(),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
}

TEST(RootMeanSquaredLogErrorTest, BoolPredictionsAreLoggedInFloat16) {
  // numpy computes np.log1p(True) as float16 0.693359375; sklearn 1.2.1 gives
  // sqrt(mean_squared_log_error([1.0, 0.0, 2.0], [True, False, True])) =
  // 0.2339729108700212.
  const Column bools{"y", Dtype::kBool, {true, false, true}};
  EXPECT_EQ(*RootMeanSquaredLogError(Floats({1.0, 0.0, 2.0}), bools), 0.2339729108700212);
  EXPECT_EQ(RootMeanSquaredLogError(bools, bools).status().code(),
            absl::StatusCode::kUnimplemented);
  // An object column of bools with no hole is float64, not bool: exact ln 2.
  const Column object_bools{"y", Dtype::kObject, {true}};
  EXPECT_EQ(*RootMeanSquaredLogError(Floats({0.0}), object_bools), std::log(2.0));
}

TEST(RootMeanSquaredLogErrorTest, IntAndTextColumns) {
  EXPECT_EQ(*RootMeanSquaredLogError(Floats({1.0, 2.0}),
                                     Column{"y", Dtype::kInt64, {int64_t{1}, int64_t{2}}}),
            0.0);
  EXPECT_EQ(RootMeanSquaredLogError(Floats({1.0}), Column{"y", Dtype::kInt64, {int64_t{-1}}})
                .status()
                .message(),
            kNegative);
  EXPECT_EQ(
      RootMeanSquaredLogError(Floats({1.0}), Column{"y", Dtype::kObject, {std::string("one")}})
          .status()
          .message(),
      "could not convert string to float: 'one'");
}

}  // namespace
}  // namespace mlebench
