#include "base/typed_csv_writer.h"

#include <cstdint>
#include <filesystem>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "base/typed_table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Every kind of value the writer formats, over more rows than one slice.
Table MixedTable(size_t rows) {
  Column text{"name,\n\"quoted\"", Dtype::kObject, {}};
  Column ints{"i", Dtype::kInt64, {}};
  Column doubles{"x", Dtype::kFloat64, {}};
  Column mixed{"m", Dtype::kObject, {}};
  for (size_t r = 0; r < rows; ++r) {
    switch (r % 4) {
      case 0:
        text.cells.push_back(std::string("plain"));
        break;
      case 1:
        text.cells.push_back(std::string("a,\"b\"\nc"));
        break;
      case 2:
        text.cells.push_back(std::monostate());
        break;
      default:
        text.cells.push_back(std::string());
        break;
    }
    ints.cells.push_back(static_cast<int64_t>(r) * 7919 - 100000);
    doubles.cells.push_back(r % 5 == 0 ? std::numeric_limits<double>::quiet_NaN()
                                       : 0.1 * static_cast<double>(r) + 1e-17);
    mixed.cells.push_back(r % 3 == 0   ? Cell(true)
                          : r % 3 == 1 ? Cell(static_cast<int64_t>(r))
                                       : Cell(std::string("t")));
  }
  return Table({text, ints, doubles, mixed});
}

std::vector<const TypedColumn*> Pointers(const TypedTable& table) {
  std::vector<const TypedColumn*> out;
  for (const TypedColumn& c : table.columns()) out.push_back(&c);
  return out;
}

// The rows at `rows` as one Table, written by WriteCsvFile.
std::string Expected(const Table& table, const std::vector<int64_t>& rows) {
  std::vector<Column> columns;
  for (const Column& c : table.columns()) {
    Column taken{c.name, c.dtype, {}};
    for (int64_t r : rows) taken.cells.push_back(c.cells[static_cast<size_t>(r)]);
    columns.push_back(std::move(taken));
  }
  return WriteCsvString(Table(std::move(columns)));
}

TEST(WriteTypedCsvRowsTest, MatchesWriteCsvStringAcrossSlices) {
  const size_t n = (size_t{1} << 16) * 2 + 123;
  const Table table = MixedTable(n);
  const TypedTable typed = TypedTable::View(table);
  // Rows out of order, repeated and skipped.
  std::vector<int64_t> rows;
  for (size_t i = 0; i < n; ++i) rows.push_back(static_cast<int64_t>((i * 40503) % n));
  rows.push_back(3);
  const fs::path path = testing::NewTempDir("typed_csv") / "out.csv";
  ASSERT_TRUE(WriteTypedCsvRows(Pointers(typed), rows, path.string()).ok());
  absl::StatusOr<std::string> written = ReadFileToString(path);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, Expected(table, rows));
  // Nothing but the output is left beside it.
  EXPECT_EQ(std::distance(fs::directory_iterator(path.parent_path()), fs::directory_iterator()), 1);
}

TEST(WriteTypedCsvRowsTest, TypedStorageAndNoRows) {
  const std::string csv = "k,v,w\na,1,2.5\n\"b,\",2,\nc,3,0.1\n";
  absl::StatusOr<TypedTable> typed = ReadTypedCsvString(csv, "test");
  ASSERT_TRUE(typed.ok());
  const fs::path dir = testing::NewTempDir("typed_csv");
  ASSERT_TRUE(WriteTypedCsvRows(Pointers(*typed), std::vector<int64_t>{2, 0, 1},
                                (dir / "some.csv").string())
                  .ok());
  EXPECT_EQ(*ReadFileToString(dir / "some.csv"), "k,v,w\nc,3,0.1\na,1,2.5\n\"b,\",2,\n");
  ASSERT_TRUE(WriteTypedCsvRows(Pointers(*typed), {}, (dir / "none.csv").string()).ok());
  EXPECT_EQ(*ReadFileToString(dir / "none.csv"), "k,v,w\n");
}

TEST(WriteTypedCsvRowsTest, RejectsBadArguments) {
  const Table table = MixedTable(3);
  const TypedTable typed = TypedTable::View(table);
  const fs::path dir = testing::NewTempDir("typed_csv");
  EXPECT_EQ(WriteTypedCsvRows(Pointers(typed), std::vector<int64_t>{0, 3}, (dir / "a.csv").string())
                .code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(WriteTypedCsvRows({}, {}, (dir / "b.csv").string()).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(WriteTypedCsvRows(Pointers(typed), std::vector<int64_t>{0},
                                 (dir / "no_such_dir" / "c.csv").string())
                   .ok());
  EXPECT_TRUE(fs::is_empty(dir));
}

TEST(TypedCsvRowsWriterTest, BatchesGiveTheTextOfAllTheirRows) {
  const size_t n = (size_t{1} << 16) * 2 + 123;
  const Table table = MixedTable(n);
  const TypedTable typed = TypedTable::View(table);
  // Batches of every size: none, one row, a slice and more.
  std::vector<std::vector<int64_t>> batches = {{}, {5}, {}, {}};
  for (size_t i = 0; i < n; ++i) batches[2 + (i % 3 == 0)].push_back(static_cast<int64_t>(i));
  std::vector<int64_t> all;
  for (const auto& batch : batches) all.insert(all.end(), batch.begin(), batch.end());
  const fs::path path = testing::NewTempDir("typed_csv") / "out.csv";
  absl::StatusOr<TypedCsvRowsWriter> writer = TypedCsvRowsWriter::Create(path.string());
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const auto& batch : batches) ASSERT_TRUE(writer->Append(Pointers(typed), batch).ok());
  EXPECT_FALSE(fs::exists(path));
  ASSERT_TRUE(writer->Finish().ok());
  EXPECT_EQ(*ReadFileToString(path), Expected(table, all));
  EXPECT_EQ(std::distance(fs::directory_iterator(path.parent_path()), fs::directory_iterator()), 1);
  EXPECT_EQ(writer->Finish().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(writer->Append(Pointers(typed), {}).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TypedCsvRowsWriterTest, UnfinishedOrFailedLeavesNothing) {
  const Table table = MixedTable(3);
  const TypedTable typed = TypedTable::View(table);
  const fs::path dir = testing::NewTempDir("typed_csv");
  {
    absl::StatusOr<TypedCsvRowsWriter> writer =
        TypedCsvRowsWriter::Create((dir / "a.csv").string());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(writer->Append(Pointers(typed), std::vector<int64_t>{0, 1}).ok());
    EXPECT_EQ(writer->Append(Pointers(typed), std::vector<int64_t>{3}).code(),
              absl::StatusCode::kOutOfRange);
  }
  EXPECT_TRUE(fs::is_empty(dir));
  EXPECT_FALSE(TypedCsvRowsWriter::Create((dir / "no_such_dir" / "b.csv").string()).ok());
  EXPECT_TRUE(fs::is_empty(dir));
}

}  // namespace
}  // namespace mlebench
