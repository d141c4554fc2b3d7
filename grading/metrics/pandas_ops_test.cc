#include "grading/metrics/pandas_ops.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Column Col(Dtype dtype, std::vector<Cell> cells) { return Column{"c", dtype, std::move(cells)}; }

TEST(CellsEqualTest, NumbersCompareByValueAcrossTypes) {
  EXPECT_TRUE(CellsEqual(Cell{true}, Cell{int64_t{1}}));
  EXPECT_TRUE(CellsEqual(Cell{int64_t{1}}, Cell{1.0}));
  EXPECT_TRUE(CellsEqual(Cell{false}, Cell{0.0}));
  EXPECT_FALSE(CellsEqual(Cell{int64_t{2}}, Cell{true}));
  // int64 meeting float64 is compared as float64, as numpy promotes.
  EXPECT_TRUE(CellsEqual(Cell{int64_t{(1LL << 53) + 1}}, Cell{9007199254740992.0}));
  EXPECT_FALSE(CellsEqual(Cell{int64_t{(1LL << 53) + 1}}, Cell{int64_t{1LL << 53}}));
}

TEST(CellsEqualTest, StringsOnlyEqualStrings) {
  EXPECT_TRUE(CellsEqual(Cell{std::string("a")}, Cell{std::string("a")}));
  EXPECT_FALSE(CellsEqual(Cell{std::string("1")}, Cell{int64_t{1}}));
  EXPECT_FALSE(CellsEqual(Cell{std::string("True")}, Cell{true}));
}

TEST(CellsEqualTest, MissingEqualsNothing) {
  EXPECT_FALSE(CellsEqual(Cell{}, Cell{}));
  EXPECT_FALSE(CellsEqual(Cell{kNaN}, Cell{kNaN}));
  EXPECT_FALSE(CellsEqual(Cell{}, Cell{std::string("")}));
}

TEST(SortValuesOrderTest, StringsByCodePointWithMissingLast) {
  Column c = Col(Dtype::kObject, {std::string("b"), Cell{}, std::string("B"), std::string("é"),
                                  std::string("a"), std::string("z")});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok()) << order.status();
  // "B" (0x42) < "a" < "b" < "z" < "é" (0xC3 0xA9); NaN last.
  EXPECT_THAT(*order, ElementsAre(2, 4, 0, 5, 3, 1));
}

TEST(SortValuesOrderTest, NumbersWithNaNLastAndStableTies) {
  Column c = Col(Dtype::kFloat64, {3.0, kNaN, -1.0, 3.0, 0.5});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok());
  EXPECT_THAT(*order, ElementsAre(2, 4, 0, 3, 1));
}

TEST(SortValuesOrderTest, LargeIntsSortExactly) {
  Column c = Col(Dtype::kInt64, {int64_t{(1LL << 53) + 1}, int64_t{1LL << 53}});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok());
  EXPECT_THAT(*order, ElementsAre(1, 0));
}

TEST(SortValuesOrderTest, StringsMixedWithNumbersOrBoolsCannotBeSorted) {
  EXPECT_FALSE(SortValuesOrder(Col(Dtype::kObject, {std::string("a"), int64_t{1}})).ok());
  absl::StatusOr<std::vector<size_t>> mixed =
      SortValuesOrder(Col(Dtype::kObject, {std::string("a"), true, Cell{}}));
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("'bool' and 'str'"), std::string::npos);
  // Bools with missing values sort fine.
  absl::StatusOr<std::vector<size_t>> bools =
      SortValuesOrder(Col(Dtype::kObject, {true, Cell{}, false}));
  ASSERT_TRUE(bools.ok());
  EXPECT_THAT(*bools, ElementsAre(2, 0, 1));
}

TEST(SortValuesOrderTest, EmptyColumn) {
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(Col(Dtype::kObject, {}));
  ASSERT_TRUE(order.ok());
  EXPECT_TRUE(order->empty());
}

TEST(TakeCellsTest, Permutes) {
  Column c = Col(Dtype::kInt64, {int64_t{10}, int64_t{20}, int64_t{30}});
  const std::vector<size_t> order = {2, 0, 1};
  Column taken = TakeCells(c, order);
  EXPECT_EQ(taken.name, "c");
  EXPECT_EQ(taken.dtype, Dtype::kInt64);
  EXPECT_THAT(taken.cells, ElementsAre(Cell{int64_t{30}}, Cell{int64_t{10}}, Cell{int64_t{20}}));
}

TEST(SymmetricDifferenceSizeTest, CountsIdsOnOneSideOnly) {
  Column a = Col(Dtype::kObject, {std::string("x"), std::string("y"), std::string("y")});
  Column b = Col(Dtype::kObject, {std::string("y"), std::string("z"), std::string("w")});
  EXPECT_EQ(SymmetricDifferenceSize(a, b), 3u);  // {x} ^ {z, w}
  Column ints = Col(Dtype::kInt64, {int64_t{1}, int64_t{2}});
  Column floats = Col(Dtype::kFloat64, {1.0, 2.5});
  EXPECT_EQ(SymmetricDifferenceSize(ints, floats), 2u);  // 1 == 1.0; {2} ^ {2.5}
}

TEST(NumericValueTest, Conversions) {
  EXPECT_EQ(NumericValue(Cell{true}), 1.0);
  EXPECT_EQ(NumericValue(Cell{int64_t{-3}}), -3.0);
  EXPECT_TRUE(std::isnan(*NumericValue(Cell{})));
  EXPECT_FALSE(NumericValue(Cell{std::string("1")}).has_value());
}

}  // namespace
}  // namespace mlebench
