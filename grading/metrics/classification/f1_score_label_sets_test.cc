#include "grading/metrics/classification/f1_score_label_sets.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

using Rows = std::vector<std::vector<std::string>>;

TEST(SplitLabelColumnTest, SplitsOnPythonWhitespaceMissingIsEmpty) {
  const Column column{"labels", Dtype::kObject,
                      {std::string("a b"), std::monostate{}, std::string("  c\t\xc2\xa0" "d "),
                       std::string(""), std::string("x\xe2\x80\x8by")}};
  const Rows expected = {{"a", "b"}, {}, {"c", "d"}, {}, {"x\xe2\x80\x8by"}};
  EXPECT_EQ(*SplitLabelColumn(column), expected);
}

TEST(SplitLabelColumnTest, AllMissingFloatColumnIsEmptySets) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Column column{"labels", Dtype::kFloat64, {nan, nan}};
  EXPECT_EQ(*SplitLabelColumn(column), (Rows{{}, {}}));
}

TEST(SplitLabelColumnTest, NumbersAndBoolsAreErrors) {
  EXPECT_FALSE(SplitLabelColumn({"l", Dtype::kInt64, {int64_t{5}}}).ok());
  EXPECT_FALSE(SplitLabelColumn({"l", Dtype::kFloat64, {1.5, std::nan("")}}).ok());
  EXPECT_FALSE(SplitLabelColumn({"l", Dtype::kBool, {true}}).ok());
  EXPECT_FALSE(SplitLabelColumn({"l", Dtype::kObject, {true, std::monostate{}}}).ok());
  EXPECT_FALSE(SplitLabelColumn({"l", Dtype::kObject, {std::string("\xff")}}).ok());
}

}  // namespace
}  // namespace mlebench
