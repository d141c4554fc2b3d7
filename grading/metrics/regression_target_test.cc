#include "grading/metrics/regression_target.h"

#include <cmath>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kInf = std::numeric_limits<double>::infinity();

Column MakeColumn(Dtype dtype, std::vector<Cell> cells) {
  return Column{"y", dtype, std::move(cells)};
}

TEST(ToRegressionTargetTest, KeepsNumericDtypes) {
  absl::StatusOr<RegressionTarget> floats =
      ToRegressionTarget(MakeColumn(Dtype::kFloat64, {1.5, std::nan(""), -kInf}));
  ASSERT_TRUE(floats.ok());
  EXPECT_FALSE(floats->is_bool);
  EXPECT_EQ(floats->values[0], 1.5);
  EXPECT_TRUE(std::isnan(floats->values[1]));
  EXPECT_EQ(floats->values[2], -kInf);

  absl::StatusOr<RegressionTarget> ints =
      ToRegressionTarget(MakeColumn(Dtype::kInt64, {int64_t{3}, int64_t{-4}}));
  ASSERT_TRUE(ints.ok());
  EXPECT_FALSE(ints->is_bool);
  EXPECT_THAT(ints->values, ElementsAre(3.0, -4.0));

  absl::StatusOr<RegressionTarget> bools =
      ToRegressionTarget(MakeColumn(Dtype::kBool, {true, false}));
  ASSERT_TRUE(bools.ok());
  EXPECT_TRUE(bools->is_bool);
  EXPECT_THAT(bools->values, ElementsAre(1.0, 0.0));
}

TEST(ToRegressionTargetTest, ObjectColumnsConvertLikeNumpy) {
  // Bools with a hole (pandas' object column), numeric text pandas left alone.
  absl::StatusOr<RegressionTarget> target = ToRegressionTarget(
      MakeColumn(Dtype::kObject, {true, std::monostate{}, std::string("1_0"), int64_t{2}, 2.5}));
  ASSERT_TRUE(target.ok()) << target.status();
  EXPECT_FALSE(target->is_bool);  // an object array becomes float64
  EXPECT_EQ(target->values[0], 1.0);
  EXPECT_TRUE(std::isnan(target->values[1]));
  EXPECT_EQ(target->values[2], 10.0);
  EXPECT_EQ(target->values[3], 2.0);
  EXPECT_EQ(target->values[4], 2.5);

  absl::StatusOr<RegressionTarget> text =
      ToRegressionTarget(MakeColumn(Dtype::kObject, {std::string("1.0"), std::string("it's")}));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "could not convert string to float: \"it's\"");
  text = ToRegressionTarget(MakeColumn(Dtype::kObject, {std::string("a\tb")}));
  EXPECT_EQ(text.status().message(), "could not convert string to float: 'a\\tb'");
}

TEST(CheckRegressionTargetTest, RejectsNonFiniteAndEmpty) {
  EXPECT_THAT(
      CheckRegressionTarget(MakeColumn(Dtype::kFloat64, {1.0, std::nan("")})).status().message(),
      HasSubstr("Input contains NaN."));
  EXPECT_THAT(
      CheckRegressionTarget(MakeColumn(Dtype::kObject, {std::string("-inf")})).status().message(),
      HasSubstr("Input contains infinity or a value too large for dtype('float64')."));
  EXPECT_EQ(CheckRegressionTarget(MakeColumn(Dtype::kFloat64, {})).status().message(),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
  EXPECT_TRUE(CheckRegressionTarget(MakeColumn(Dtype::kInt64, {int64_t{1}})).ok());
}

}  // namespace
}  // namespace mlebench
