#include "grading/metrics/regression/mean_absolute_error.h"

#include <cmath>
#include <cstdint>
#include <limits>
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
  Column c;
  c.name = "y";
  c.dtype = dtype;
  c.cells = std::move(cells);
  return c;
}

TEST(MeanAbsoluteErrorTest, HandComputed) {
  EXPECT_DOUBLE_EQ(*MeanAbsoluteError(std::vector<double>{3, -0.5, 2, 7},
                                      std::vector<double>{2.5, 0.0, 2, 8}),
                   0.5);
  EXPECT_EQ(*MeanAbsoluteError(std::vector<double>{1.5}, std::vector<double>{1.5}), 0.0);
}

TEST(MeanAbsoluteErrorTest, ColumnsOfEveryDtype) {
  const Column ints = MakeColumn(Dtype::kInt64, {int64_t{1}, int64_t{5}, int64_t{-3}});
  const Column floats = MakeColumn(Dtype::kFloat64, {1.5, 5.0, -1.0});
  const Column bools = MakeColumn(Dtype::kBool, {true, false, true});
  const Column text = MakeColumn(Dtype::kObject, {std::string("1"), std::string(" 2.5 "), 3.0});
  EXPECT_DOUBLE_EQ(*MeanAbsoluteError(ints, floats), (0.5 + 0 + 2) / 3);
  EXPECT_DOUBLE_EQ(*MeanAbsoluteError(ints, bools), (0 + 5 + 4) / 3.0);
  EXPECT_DOUBLE_EQ(*MeanAbsoluteError(text, floats), (0.5 + 2.5 + 4) / 3);
}

TEST(MeanAbsoluteErrorTest, IntegersSubtractInInt64AsNumpyDoes) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // 1 - (-2**63) wraps to -2**63 + 1; abs(-2**63) stays -2**63 (numpy).
  const Column y_true = MakeColumn(Dtype::kInt64, {int64_t{-(int64_t{1} << 62)}, kMin});
  const Column y_pred = MakeColumn(Dtype::kInt64, {int64_t{1} << 62, int64_t{1}});
  EXPECT_EQ(*MeanAbsoluteError(y_true, y_pred), 0.0);
  // Exact differences of large integers that doubles would round.
  const Column a = MakeColumn(Dtype::kInt64, {int64_t{(int64_t{1} << 60) + 1}});
  const Column b = MakeColumn(Dtype::kInt64, {int64_t{1} << 60});
  EXPECT_EQ(*MeanAbsoluteError(a, b), 1.0);
}

TEST(MeanAbsoluteErrorTest, SklearnErrorsInOrder) {
  EXPECT_EQ(MeanAbsoluteError(std::vector<double>{1, 2}, std::vector<double>{1}).status().message(),
            "Found input variables with inconsistent numbers of samples: [2, 1]");
  EXPECT_EQ(MeanAbsoluteError(std::vector<double>{NAN}, std::vector<double>{INFINITY})
                .status()
                .message(),
            "Input contains NaN.");
  EXPECT_THAT(std::string(MeanAbsoluteError(std::vector<double>{1}, std::vector<double>{INFINITY})
                              .status()
                              .message()),
              HasSubstr("infinity"));
  EXPECT_THAT(std::string(
                  MeanAbsoluteError(std::vector<double>{}, std::vector<double>{}).status().message()),
              HasSubstr("0 sample(s)"));
  const Column bools = MakeColumn(Dtype::kBool, {true, false});
  EXPECT_THAT(std::string(MeanAbsoluteError(bools, bools).status().message()),
              HasSubstr("numpy boolean subtract"));
  const Column bad = MakeColumn(Dtype::kObject, {std::string("x"), 1.0});
  const Column good = MakeColumn(Dtype::kFloat64, {1.0, 2.0});
  EXPECT_EQ(MeanAbsoluteError(good, bad).status().message(),
            "could not convert string to float: 'x'");
  for (const absl::Status& s : {MeanAbsoluteError(good, bad).status(),
                                MeanAbsoluteError(bools, bools).status()}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST(MeanAbsoluteErrorTest, OverflowIsInfinity) {
  EXPECT_EQ(*MeanAbsoluteError(std::vector<double>{-1.7e308, 0}, std::vector<double>{1.7e308, 0}),
            INFINITY);
}

}  // namespace
}  // namespace mlebench
