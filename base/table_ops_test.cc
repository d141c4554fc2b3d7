#include "base/table_ops.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;

Table Sample() {
  return Table({
      Column{"id", Dtype::kObject, {std::string("a"), std::string("b"), std::string("c")}},
      Column{"x", Dtype::kFloat64, {1.5, std::nan(""), -2.0}},
      Column{"flag", Dtype::kObject, {true, std::monostate{}, false}},
  });
}

TEST(TakeRowsTest, TakesRowsInTheGivenOrderAndKeepsDtypes) {
  const std::vector<int64_t> rows = {2, 0, 2};
  absl::StatusOr<Table> taken = TakeRows(Sample(), rows);
  ASSERT_TRUE(taken.ok()) << taken.status();
  ASSERT_EQ(taken->num_rows(), 3u);
  EXPECT_THAT(taken->ColumnNames(), ElementsAre("id", "x", "flag"));
  EXPECT_EQ(taken->columns()[0].cells,
            (std::vector<Cell>{std::string("c"), std::string("a"), std::string("c")}));
  EXPECT_EQ(taken->columns()[1].dtype, Dtype::kFloat64);
  EXPECT_EQ(taken->columns()[2].dtype, Dtype::kObject);  // pandas keeps object
  EXPECT_EQ(taken->columns()[2].cells, (std::vector<Cell>{false, true, false}));
}

TEST(TakeRowsTest, EmptySelection) {
  absl::StatusOr<Table> taken = TakeRows(Sample(), {});
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(taken->num_rows(), 0u);
  EXPECT_EQ(taken->num_columns(), 3u);
}

TEST(TakeRowsTest, RejectsOutOfRangeRows) {
  const std::vector<int64_t> past_end = {3};
  EXPECT_EQ(TakeRows(Sample(), past_end).status().code(), absl::StatusCode::kOutOfRange);
  const std::vector<int64_t> negative = {-1};
  EXPECT_EQ(TakeRows(Sample(), negative).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(KeepRowsInPlaceTest, KeepsIncreasingRowsLikeTakeRows) {
  for (const std::vector<int64_t>& rows :
       {std::vector<int64_t>{}, {0}, {2}, {0, 2}, {1, 2}, {0, 1, 2}}) {
    Table table = Sample();
    ASSERT_TRUE(KeepRowsInPlace(table, rows).ok());
    absl::StatusOr<Table> taken = TakeRows(Sample(), rows);
    ASSERT_TRUE(taken.ok());
    ASSERT_EQ(table.num_rows(), rows.size());
    for (size_t c = 0; c < table.num_columns(); ++c) {
      EXPECT_EQ(table.columns()[c].dtype, taken->columns()[c].dtype);
      for (size_t r = 0; r < rows.size(); ++r) {
        const Cell& a = table.columns()[c].cells[r];
        const Cell& b = taken->columns()[c].cells[r];
        EXPECT_TRUE(a == b || (IsMissing(a) && IsMissing(b))) << c << " " << r;
      }
    }
  }
}

TEST(KeepRowsInPlaceTest, RejectsUnorderedRepeatedOrOutOfRangeRows) {
  Table table = Sample();
  EXPECT_EQ(KeepRowsInPlace(table, std::vector<int64_t>{1, 0}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(KeepRowsInPlace(table, std::vector<int64_t>{1, 1}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(KeepRowsInPlace(table, std::vector<int64_t>{0, 3}).code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(table.num_rows(), 3u);  // untouched after an error
}

TEST(TableOpsTest, RejectsRaggedTables) {
  Table ragged({Column{"a", Dtype::kInt64, {int64_t{1}, int64_t{2}}},
                Column{"b", Dtype::kInt64, {int64_t{1}}}});
  const std::vector<int64_t> rows = {0};
  EXPECT_EQ(TakeRows(ragged, rows).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(DropColumns(ragged, {"a"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SelectColumns(ragged, {"a"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SetConstantColumn(ragged, "a", int64_t{0}).code(), absl::StatusCode::kInvalidArgument);
}

TEST(DropColumnsTest, DropsAndKeepsOrder) {
  absl::StatusOr<Table> dropped = DropColumns(Sample(), {"x"});
  ASSERT_TRUE(dropped.ok());
  EXPECT_THAT(dropped->ColumnNames(), ElementsAre("id", "flag"));
  EXPECT_EQ(DropColumns(Sample(), {"x", "nope"}).status().code(), absl::StatusCode::kNotFound);
}

TEST(SelectColumnsTest, SelectsInGivenOrder) {
  absl::StatusOr<Table> selected = SelectColumns(Sample(), {"flag", "id"});
  ASSERT_TRUE(selected.ok());
  EXPECT_THAT(selected->ColumnNames(), ElementsAre("flag", "id"));
  EXPECT_EQ(selected->num_rows(), 3u);
  EXPECT_EQ(SelectColumns(Sample(), {"nope"}).status().code(), absl::StatusCode::kNotFound);
}

TEST(SetConstantColumnTest, ReplacesInPlaceWithTheValuesDtype) {
  Table table = Sample();
  ASSERT_TRUE(SetConstantColumn(table, "x", false).ok());
  EXPECT_THAT(table.ColumnNames(), ElementsAre("id", "x", "flag"));
  EXPECT_EQ(table.columns()[1].dtype, Dtype::kBool);
  EXPECT_EQ(table.columns()[1].cells, (std::vector<Cell>{false, false, false}));
}

TEST(SetConstantColumnTest, AppendsNewColumns) {
  Table table = Sample();
  ASSERT_TRUE(SetConstantColumn(table, "p", 0.5).ok());
  ASSERT_TRUE(SetConstantColumn(table, "n", int64_t{7}).ok());
  ASSERT_TRUE(SetConstantColumn(table, "s", std::string("z")).ok());
  ASSERT_TRUE(SetConstantColumn(table, "m", std::monostate{}).ok());
  EXPECT_THAT(table.ColumnNames(), ElementsAre("id", "x", "flag", "p", "n", "s", "m"));
  EXPECT_EQ(table.Find("p")->dtype, Dtype::kFloat64);
  EXPECT_EQ(table.Find("p")->cells, (std::vector<Cell>{0.5, 0.5, 0.5}));
  EXPECT_EQ(table.Find("n")->dtype, Dtype::kInt64);
  EXPECT_EQ(table.Find("s")->dtype, Dtype::kObject);
  EXPECT_EQ(table.Find("m")->dtype, Dtype::kFloat64);
  EXPECT_TRUE(IsMissing(table.Find("m")->cells[0]));
}

TEST(SetConstantColumnTest, WorksOnEmptyTablesWithColumns) {
  Table table({Column{"id", Dtype::kObject, {}}});
  ASSERT_TRUE(SetConstantColumn(table, "p", 0.5).ok());
  EXPECT_EQ(table.num_columns(), 2u);
  EXPECT_EQ(table.num_rows(), 0u);
}

TEST(SetConstantColumnTest, RejectsTablesWithoutColumns) {
  Table table;
  EXPECT_EQ(SetConstantColumn(table, "p", 0.5).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mlebench
