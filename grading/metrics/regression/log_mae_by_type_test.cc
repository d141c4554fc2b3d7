#include "grading/metrics/regression/log_mae_by_type.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

Column MakeColumn(Dtype dtype, std::vector<Cell> cells) {
  return Column{.name = "y", .dtype = dtype, .cells = std::move(cells)};
}

Column Types(std::vector<Cell> cells) { return MakeColumn(Dtype::kObject, std::move(cells)); }
Column Floats(std::vector<Cell> cells) { return MakeColumn(Dtype::kFloat64, std::move(cells)); }

TEST(LogMaeByTypeTest, MeanOfPerTypeLogs) {
  // 1JHC: errors 1 and 3 (MAE 2); 2JHH: error 0.5.
  const Column types = Types({std::string("2JHH"), std::string("1JHC"), std::string("1JHC")});
  EXPECT_DOUBLE_EQ(*LogMaeByType(types, Floats({1.0, 2.0, 3.0}), Floats({1.5, 3.0, 6.0})),
                   (std::log(2.0) + std::log(0.5)) / 2);
  // One type: its log MAE; missing labels are dropped.
  EXPECT_DOUBLE_EQ(*LogMaeByType(Types({std::string("a"), std::monostate{}}), Floats({1.0, 2.0}),
                                 Floats({4.0, 100.0})),
                   std::log(3.0));
}

TEST(LogMaeByTypeTest, PerfectGroupIsMinusInfinity) {
  const Column types = Types({std::string("a"), std::string("b")});
  EXPECT_EQ(*LogMaeByType(types, Floats({1.0, 2.0}), Floats({1.0, 5.0})), -INFINITY);
  // An overflowing MAE is +inf; with a perfect group the mean is NaN.
  EXPECT_TRUE(std::isnan(
      *LogMaeByType(types, Floats({1.0, -1.7e308}), Floats({1.0, 1.7e308}))));
  EXPECT_TRUE(std::isnan(*LogMaeByType(Types({std::monostate{}}), Floats({1.0}), Floats({1.0}))));
}

TEST(LogMaeByTypeTest, FirstFailingGroupInKeyOrderDecides) {
  const Column types = Types({std::string("b"), std::string("a")});
  const absl::StatusOr<double> result =
      LogMaeByType(types, Floats({1.0, 2.0}),
                   MakeColumn(Dtype::kObject, {std::string("x"), std::monostate{}}));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(result.status().message(), "Input contains NaN.");  // group "a" first
  EXPECT_THAT(std::string(LogMaeByType(types, Floats({1.0}), Floats({1.0})).status().message()),
              HasSubstr("length"));
  EXPECT_THAT(std::string(LogMaeByType(Types({int64_t{1}}), Floats({1.0}), Floats({1.0}))
                              .status()
                              .message()),
              HasSubstr("not text"));
}

}  // namespace
}  // namespace mlebench
