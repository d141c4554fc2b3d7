#include "grading/metrics/inner_merge.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

Column Keys(Dtype dtype, std::vector<Cell> cells) {
  return Column{.name = "k", .dtype = dtype, .cells = std::move(cells)};
}

TEST(InnerMergeRowsTest, LeftOrderThenRightOrderForRepeats) {
  const Column left = Keys(Dtype::kInt64, {int64_t{3}, int64_t{1}, int64_t{2}});
  const Column right = Keys(Dtype::kInt64, {int64_t{1}, int64_t{3}, int64_t{9}, int64_t{1}});
  EXPECT_THAT(InnerMergeRows(left, right), ElementsAre(Pair(0, 1), Pair(1, 0), Pair(1, 3)));
}

TEST(InnerMergeRowsTest, NumbersByValueStringsByContent) {
  const Column ints = Keys(Dtype::kInt64, {int64_t{5}, int64_t{1}, int64_t{0}});
  const Column floats = Keys(Dtype::kFloat64, {1.0, 5.0, 0.5, NAN, -0.0});
  EXPECT_THAT(InnerMergeRows(ints, floats), ElementsAre(Pair(0, 1), Pair(1, 0), Pair(2, 4)));
  EXPECT_THAT(InnerMergeRows(Keys(Dtype::kFloat64, {0.5, NAN}), floats), ElementsAre(Pair(0, 2)));
  const Column text = Keys(Dtype::kObject, {std::string("5"), std::string("a"), std::monostate{}});
  EXPECT_THAT(InnerMergeRows(ints, text), IsEmpty());
  EXPECT_THAT(InnerMergeRows(text, text), ElementsAre(Pair(0, 0), Pair(1, 1)));
  EXPECT_THAT(InnerMergeRows(Keys(Dtype::kBool, {true}), ints), ElementsAre(Pair(0, 1)));
}

}  // namespace
}  // namespace mlebench
