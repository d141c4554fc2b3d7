#include "base/typed_table.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(TypedColumnTest, TypedStorageReadsBackAsTheCellsItStandsFor) {
  const TypedColumn ints = TypedColumn::Ints("i", {3, -7});
  EXPECT_EQ(ints.dtype(), Dtype::kInt64);
  EXPECT_EQ(ints.storage(), TypedColumn::Storage::kInt64);
  EXPECT_EQ(ints.size(), 2u);
  EXPECT_EQ(ints.CellAt(1), Cell(int64_t{-7}));
  EXPECT_TRUE(ints.doubles().empty());

  const TypedColumn doubles =
      TypedColumn::Doubles("d", {0.5, std::numeric_limits<double>::quiet_NaN()});
  EXPECT_EQ(doubles.dtype(), Dtype::kFloat64);
  EXPECT_EQ(doubles.CellAt(0), Cell(0.5));
  EXPECT_TRUE(IsMissing(doubles.CellAt(1)));

  const TypedColumn bools = TypedColumn::Bools("b", {1, 0});
  EXPECT_EQ(bools.dtype(), Dtype::kBool);
  EXPECT_EQ(bools.CellAt(0), Cell(true));
  EXPECT_EQ(bools.CellAt(1), Cell(false));
}

TEST(TypedColumnTest, TextTellsMissingFromEmpty) {
  // A missing value is a null view; the empty string has data.
  const TypedColumn text = TypedColumn::Text("t", {"a", std::string_view(), ""});
  EXPECT_EQ(text.dtype(), Dtype::kObject);
  EXPECT_EQ(text.storage(), TypedColumn::Storage::kText);
  EXPECT_FALSE(TypedColumn::IsMissingText(text.text()[0]));
  EXPECT_TRUE(TypedColumn::IsMissingText(text.text()[1]));
  EXPECT_FALSE(TypedColumn::IsMissingText(text.text()[2]));
  const Column column = text.ToColumn();
  EXPECT_EQ(column.name, "t");
  EXPECT_EQ(column.dtype, Dtype::kObject);
  ASSERT_EQ(column.cells.size(), 3u);
  EXPECT_EQ(column.cells[0], Cell(std::string("a")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(column.cells[1]));
  EXPECT_EQ(column.cells[2], Cell(std::string()));
}

TEST(TypedColumnTest, CellsAreOwnedOrViewedAndSurviveMoves) {
  TypedColumn owned =
      TypedColumn::Cells("o", Dtype::kObject, {Cell(std::string("x")), Cell(int64_t{2})});
  const Cell* before = owned.cells().data();
  TypedColumn moved = std::move(owned);
  EXPECT_EQ(moved.cells().data(), before);  // the storage moved with it
  EXPECT_EQ(moved.CellAt(0), Cell(std::string("x")));
  EXPECT_EQ(moved.CellAt(1), Cell(int64_t{2}));

  const Column column{"v", Dtype::kFloat64, {Cell(1.5), Cell(2.5)}};
  const TypedColumn view = TypedColumn::CellsView(column);
  EXPECT_EQ(view.cells().data(), column.cells.data());  // no copy
  EXPECT_EQ(view.name(), "v");
  EXPECT_EQ(view.dtype(), Dtype::kFloat64);
  EXPECT_EQ(view.size(), 2u);
}

Table SampleTable() {
  return Table({Column{"id", Dtype::kObject, {Cell(std::string("a")), Cell(std::string("b"))}},
                Column{"y", Dtype::kInt64, {Cell(int64_t{1}), Cell(int64_t{0})}}});
}

TEST(TypedTableTest, ViewAndFromTableKeepTheTable) {
  const Table table = SampleTable();
  const TypedTable view = TypedTable::View(table);
  EXPECT_EQ(view.num_rows(), 2u);
  EXPECT_EQ(view.num_columns(), 2u);
  EXPECT_EQ(view.ColumnNames(), (std::vector<std::string>{"id", "y"}));
  ASSERT_NE(view.Find("y"), nullptr);
  EXPECT_EQ(view.Find("y")->cells().data(), table.columns()[1].cells.data());
  EXPECT_EQ(view.Find("z"), nullptr);
  EXPECT_FALSE(view.Get("z").ok());
  EXPECT_EQ(view.Get("z").status().message(), "no column named 'z'");

  TypedTable owned = TypedTable::FromTable(SampleTable());
  TypedTable moved = std::move(owned);
  const Table back = moved.ToTable();
  ASSERT_EQ(back.num_columns(), 2u);
  for (size_t j = 0; j < 2; ++j) {
    EXPECT_EQ(back.columns()[j].name, table.columns()[j].name);
    EXPECT_EQ(back.columns()[j].dtype, table.columns()[j].dtype);
    EXPECT_EQ(back.columns()[j].cells, table.columns()[j].cells);
  }
}

TEST(TypedTableTest, EmptyTable) {
  const TypedTable empty;
  EXPECT_EQ(empty.num_rows(), 0u);
  EXPECT_EQ(empty.num_columns(), 0u);
  EXPECT_EQ(empty.ToTable().num_columns(), 0u);
}

TEST(TakeRowsTest, TakesTheRowsInOrderWithRepeatsKeepingNameAndDtype) {
  std::vector<TypedColumn> columns;
  columns.push_back(TypedColumn::Ints("i", {10, 11, 12}));
  columns.push_back(TypedColumn::Text("t", {"a", std::string_view(), "c"}));
  const TypedTable table(std::move(columns), nullptr);
  const std::vector<int64_t> rows = {2, 0, 2, 1};
  const absl::StatusOr<Table> taken = TakeRows(table, rows);
  ASSERT_TRUE(taken.ok()) << taken.status();
  ASSERT_EQ(taken->num_columns(), 2u);
  const Column& ints = taken->columns()[0];
  EXPECT_EQ(ints.name, "i");
  EXPECT_EQ(ints.dtype, Dtype::kInt64);
  EXPECT_EQ(ints.cells, (std::vector<Cell>{int64_t{12}, int64_t{10}, int64_t{12}, int64_t{11}}));
  const Column& text = taken->columns()[1];
  EXPECT_EQ(text.name, "t");
  EXPECT_EQ(text.dtype, Dtype::kObject);
  EXPECT_EQ(text.cells[0], Cell(std::string("c")));
  EXPECT_EQ(text.cells[1], Cell(std::string("a")));
  EXPECT_TRUE(IsMissing(text.cells[3]));
  // No rows: the columns, empty.
  const absl::StatusOr<Table> none = TakeRows(table, std::vector<int64_t>{});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->num_columns(), 2u);
  EXPECT_EQ(none->num_rows(), 0u);
}

TEST(TakeRowsTest, PositionOutOfRangeIsAnErrorNamingItAndTheColumn) {
  const TypedColumn column = TypedColumn::Doubles("d", {0.5, 1.5});
  for (const int64_t row : {int64_t{2}, int64_t{-1}}) {
    const absl::StatusOr<Column> taken = TakeRows(column, std::vector<int64_t>{0, row});
    EXPECT_EQ(taken.status().code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(taken.status().message(), absl::StrCat("row ", row, " of column 'd' with 2 rows"));
  }
}

}  // namespace
}  // namespace mlebench
