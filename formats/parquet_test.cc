#include "formats/parquet.h"

#include <snappy-c.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/files.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "base/typed_table.h"
#include "base/testing/test_util.h"
#include "formats/internal/fastparquet_layout.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool SameCell(const Cell& a, const Cell& b) {
  if (std::holds_alternative<double>(a) && std::holds_alternative<double>(b)) {
    double x = std::get<double>(a), y = std::get<double>(b);
    return (std::isnan(x) && std::isnan(y)) || x == y;
  }
  return a == b;
}

void ExpectSameTable(const Table& expected, const Table& actual) {
  ASSERT_EQ(expected.ColumnNames(), actual.ColumnNames());
  ASSERT_EQ(expected.num_rows(), actual.num_rows());
  for (size_t c = 0; c < expected.num_columns(); ++c) {
    const Column& e = expected.columns()[c];
    const Column& a = actual.columns()[c];
    EXPECT_EQ(e.dtype, a.dtype) << e.name;
    for (size_t r = 0; r < e.cells.size(); ++r) {
      EXPECT_TRUE(SameCell(e.cells[r], a.cells[r])) << e.name << " row " << r;
    }
  }
}

// Every column kind the writer and reader handle, with nulls in several places.
Table MixedTable(size_t rows, uint32_t seed) {
  std::mt19937 gen(seed);
  Column ints{"event_id", Dtype::kInt64, {}};
  Column reals{"azimuth", Dtype::kFloat64, {}};
  Column flags{"auxiliary", Dtype::kBool, {}};
  Column maybe_flags{"maybe", Dtype::kObject, {}};
  Column text{"text", Dtype::kObject, {}};
  Column nothing{"nothing", Dtype::kObject, {}};
  for (size_t i = 0; i < rows; ++i) {
    ints.cells.emplace_back(static_cast<int64_t>(gen()) - (int64_t{1} << 31) +
                            (i % 3 == 0 ? (int64_t{1} << 40) : 0));
    reals.cells.emplace_back(i % 7 == 3 ? kNaN : std::ldexp(static_cast<double>(gen()), -20) - 100);
    flags.cells.emplace_back(gen() % 2 == 0);
    if (i % 5 == 1) {
      maybe_flags.cells.emplace_back(std::monostate{});
    } else {
      maybe_flags.cells.emplace_back(gen() % 3 == 0);
    }
    if (i % 4 == 2) {
      text.cells.emplace_back(std::monostate{});
    } else {
      text.cells.emplace_back(std::string("v") + std::to_string(gen() % 6) +
                              (i % 9 == 0 ? "" : "\xc3\xa9"));
    }
    nothing.cells.emplace_back(std::monostate{});
  }
  if (rows > 0) maybe_flags.cells[0] = true;  // keep the column boolean
  return Table({ints, reals, flags, maybe_flags, text, nothing});
}

TEST(ParquetTest, RoundTripsEveryLayout) {
  const Table table = MixedTable(50, 1);
  for (ParquetCompression compression :
       {ParquetCompression::kUncompressed, ParquetCompression::kSnappy, ParquetCompression::kGzip,
        ParquetCompression::kZstd}) {
    for (int version : {1, 2}) {
      for (bool dictionary : {false, true}) {
        for (int64_t rows_per_page : {0, 1, 7}) {
          ParquetWriteOptions options;
          options.compression = compression;
          options.data_page_version = version;
          options.dictionary = dictionary;
          options.rows_per_page = rows_per_page;
          SCOPED_TRACE(::testing::Message()
                       << "compression " << static_cast<int>(compression) << " v" << version
                       << " dict " << dictionary << " rows/page " << rows_per_page);
          absl::StatusOr<std::string> bytes = SerializeParquet(table, options);
          ASSERT_TRUE(bytes.ok()) << bytes.status();
          absl::StatusOr<Table> back = ParseParquet(*bytes);
          ASSERT_TRUE(back.ok()) << back.status();
          ExpectSameTable(table, *back);
        }
      }
    }
  }
}

TEST(ParquetTest, RoundTripsEmptyAndSingleRowTables) {
  for (size_t rows : {0, 1}) {
    Table table = MixedTable(rows, 2);
    for (bool dictionary : {false, true}) {
      ParquetWriteOptions options;
      options.dictionary = dictionary;
      absl::StatusOr<std::string> bytes = SerializeParquet(table, options);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      absl::StatusOr<Table> back = ParseParquet(*bytes);
      ASSERT_TRUE(back.ok()) << back.status();
      ASSERT_EQ(back->num_rows(), rows);
      if (rows == 1) {
        // An object column of bools without a missing value reads back as
        // bool, as in pandas.
        table.mutable_columns()[3].dtype = Dtype::kBool;
        ExpectSameTable(table, *back);
      }
    }
  }
}

TEST(ParquetTest, StorageOverridesNarrowTypes) {
  Table table(
      {Column{"sensor_id", Dtype::kInt64, {int64_t{-32768}, int64_t{5159}, int64_t{32767}}},
       Column{"i32", Dtype::kInt64, {int64_t{-2147483648LL}, int64_t{0}, int64_t{2147483647}}},
       Column{"charge", Dtype::kFloat64, {0.1, 1e30, kNaN}},
       Column{"as_double", Dtype::kInt64, {int64_t{1}, int64_t{2}, int64_t{3}}}});
  ParquetWriteOptions options;
  options.storage = {{"sensor_id", ParquetStorage::kInt16},
                     {"i32", ParquetStorage::kInt32},
                     {"charge", ParquetStorage::kFloat},
                     {"as_double", ParquetStorage::kDouble}};
  absl::StatusOr<std::string> bytes = SerializeParquet(table, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<Table> back = ParseParquet(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->columns()[0].dtype, Dtype::kInt64);
  EXPECT_EQ(back->columns()[0].cells[0], Cell(int64_t{-32768}));
  EXPECT_EQ(back->columns()[1].cells[0], Cell(int64_t{-2147483648LL}));
  EXPECT_EQ(back->columns()[2].cells[0], Cell(static_cast<double>(0.1f)));
  EXPECT_TRUE(IsMissing(back->columns()[2].cells[2]));
  EXPECT_EQ(back->columns()[3].dtype, Dtype::kFloat64);
  EXPECT_EQ(back->columns()[3].cells[2], Cell(3.0));

  options.storage = {{"sensor_id", ParquetStorage::kInt16}};
  table.mutable_columns()[0].cells[0] = int64_t{40000};
  EXPECT_EQ(SerializeParquet(table, options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ParquetTest, WriterIsDeterministicAndNamesItself) {
  const Table table = MixedTable(30, 3);
  absl::StatusOr<std::string> a = SerializeParquet(table);
  absl::StatusOr<std::string> b = SerializeParquet(table);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(a->substr(0, 4), "PAR1");
  EXPECT_EQ(a->substr(a->size() - 4), "PAR1");
  EXPECT_NE(a->find("mlebench parquet writer 1"), std::string::npos);
}

TEST(ParquetTest, WriterRejectsWhatItCannotStore) {
  EXPECT_EQ(SerializeParquet(Table()).status().code(), absl::StatusCode::kInvalidArgument);
  Table dup({Column{"a", Dtype::kInt64, {int64_t{1}}}, Column{"a", Dtype::kInt64, {int64_t{2}}}});
  EXPECT_EQ(SerializeParquet(dup).status().code(), absl::StatusCode::kInvalidArgument);
  Table unnamed({Column{"", Dtype::kInt64, {int64_t{1}}}});
  EXPECT_EQ(SerializeParquet(unnamed).status().code(), absl::StatusCode::kInvalidArgument);
  Table missing_int({Column{"a", Dtype::kObject, {int64_t{1}, std::monostate{}}}});
  ParquetWriteOptions as_int;
  as_int.storage = {{"a", ParquetStorage::kInt64}};
  EXPECT_EQ(SerializeParquet(missing_int, as_int).status().code(),
            absl::StatusCode::kInvalidArgument);
  Table mixed({Column{"a", Dtype::kObject, {std::string("x"), int64_t{1}}}});
  EXPECT_EQ(SerializeParquet(mixed).status().code(), absl::StatusCode::kInvalidArgument);
  Table text_as_double({Column{"a", Dtype::kObject, {std::string("x")}}});
  ParquetWriteOptions as_double;
  as_double.storage = {{"a", ParquetStorage::kDouble}};
  EXPECT_EQ(SerializeParquet(text_as_double, as_double).status().code(),
            absl::StatusCode::kInvalidArgument);
  Table ragged({Column{"a", Dtype::kInt64, {int64_t{1}}}, Column{"b", Dtype::kInt64, {}}});
  EXPECT_EQ(SerializeParquet(ragged).status().code(), absl::StatusCode::kInvalidArgument);
  ParquetWriteOptions bad_version;
  bad_version.data_page_version = 3;
  EXPECT_EQ(SerializeParquet(MixedTable(2, 1), bad_version).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// A file built byte by byte (Thrift compact protocol written out by hand):
// one REQUIRED INT32 column "x" annotated INT_8 with values 1, -2, 3 in an
// uncompressed v1 PLAIN page, and one OPTIONAL INT64 column "y" holding
// [7, null, 9], which pandas reads as float64.
std::string HandBuiltFile() {
  std::string f = "PAR1";
  // Column x: page header {1: type 0, 2: 12, 3: 12, 5: {1: 3, 2: 0, 3: 3, 4: 3}}
  const size_t x_offset = f.size();
  f += std::string("\x15\x00\x15\x18\x15\x18\x2c\x15\x06\x15\x00\x15\x06\x15\x06\x00\x00", 17);
  f += std::string("\x01\x00\x00\x00\xfe\xff\xff\xff\x03\x00\x00\x00", 12);
  // Column y: definition levels 1, 0, 1 as three RLE runs (02 01, 02 00, 02 01)
  // behind their 4-byte length, then the values 7 and 9.
  const size_t y_offset = f.size();
  std::string y_body =
      std::string("\x06\x00\x00\x00\x02\x01\x02\x00\x02\x01", 10) +
      std::string("\x07\x00\x00\x00\x00\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00", 16);
  // uncompressed = compressed = 26 -> zigzag 52 = 0x34
  f += std::string("\x15\x00\x15\x34\x15\x34\x2c\x15\x06\x15\x00\x15\x06\x15\x06\x00\x00", 17);
  f += y_body;
  // FileMetaData
  std::string m;
  m += std::string("\x15\x02", 2);                                // 1: version 1
  m += std::string("\x19\x3c", 2);                                // 2: list of 3 structs
  m += std::string("\x48\x06schema\x15\x04\x00", 11);             // root: name, num_children 2
  m += std::string("\x15\x02\x25\x00\x18\x01x\x25\x1e\x00", 10);  // x: INT32, REQUIRED, INT_8 (15)
  m += std::string("\x15\x04\x25\x02\x18\x01y\x00", 8);           // y: INT64, OPTIONAL
  m += std::string("\x16\x06", 2);                                // 3: num_rows 3
  m += std::string("\x19\x1c", 2);                                // 4: one row group
  m += std::string("\x19\x2c", 2);                                //   1: two column chunks
  auto chunk = [&](char type, size_t offset, size_t size) {
    std::string c;
    c += '\x26';
    c += static_cast<char>(offset * 2);  // 2: file_offset (small)
    c += '\x1c';                         // 3: meta_data
    c += '\x15';
    c += static_cast<char>(type * 2);     // 1: type
    c += std::string("\x19\x15\x00", 3);  // 2: encodings [PLAIN]
    c += std::string("\x19\x18\x01", 3);  // 3: path_in_schema, one string
    c += type == 1 ? 'x' : 'y';
    c += std::string("\x15\x00", 2);  // 4: codec UNCOMPRESSED
    c += std::string("\x16\x06", 2);  // 5: num_values 3
    c += '\x16';
    c += static_cast<char>(size * 2);  // 6: total_uncompressed_size
    c += '\x16';
    c += static_cast<char>(size * 2);  // 7: total_compressed_size
    c += '\x26';
    c += static_cast<char>(offset * 2);  // 9: data_page_offset
    c += '\x00';                         // end meta_data
    c += '\x00';                         // end chunk
    return c;
  };
  m += chunk(1, x_offset, 29);
  m += chunk(2, y_offset, 43);
  m += std::string("\x26\x06", 2);  //   3: num_rows 3
  m += '\x00';                      // end row group
  m += '\x00';                      // end FileMetaData
  f += m;
  uint32_t len = static_cast<uint32_t>(m.size());
  f.append(reinterpret_cast<const char*>(&len), 4);
  f += "PAR1";
  return f;
}

TEST(ParquetTest, ReadsHandBuiltFile) {
  absl::StatusOr<Table> t = ParseParquet(HandBuiltFile());
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->ColumnNames(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(t->columns()[0].dtype, Dtype::kInt64);
  EXPECT_EQ(t->columns()[0].cells, (std::vector<Cell>{int64_t{1}, int64_t{-2}, int64_t{3}}));
  EXPECT_EQ(t->columns()[1].dtype, Dtype::kFloat64);
  EXPECT_EQ(t->columns()[1].cells[0], Cell(7.0));
  EXPECT_TRUE(IsMissing(t->columns()[1].cells[1]));
  EXPECT_EQ(t->columns()[1].cells[2], Cell(9.0));
}

TEST(ParquetTest, ClearErrorsForBadFiles) {
  EXPECT_EQ(ParseParquet("").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseParquet("PAR1PAR1").status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::string> good = SerializeParquet(MixedTable(10, 4));
  ASSERT_TRUE(good.ok());
  std::string wrong_magic = *good;
  wrong_magic[0] = 'X';
  absl::Status s = ParseParquet(wrong_magic).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("PAR1"), std::string::npos) << s;
  std::string huge_footer = *good;
  huge_footer[huge_footer.size() - 5] = '\x7f';
  s = ParseParquet(huge_footer).status();
  EXPECT_NE(std::string(s.message()).find("footer length"), std::string::npos) << s;
  for (size_t keep : {size_t{4}, size_t{20}, good->size() / 2, good->size() - 1}) {
    EXPECT_FALSE(ParseParquet(good->substr(0, keep)).ok()) << keep;
  }
  std::string encrypted = *good;
  encrypted.replace(encrypted.size() - 4, 4, "PARE");
  EXPECT_EQ(ParseParquet(encrypted).status().code(), absl::StatusCode::kUnimplemented);
  ParquetReadOptions few_rows;
  few_rows.max_rows = 5;
  s = ParseParquet(*good, few_rows).status();
  EXPECT_NE(std::string(s.message()).find("absurd row count"), std::string::npos) << s;
}

TEST(ParquetTest, UnsupportedFeaturesAreUnimplemented) {
  // x annotated DATE (6) instead of INT_8.
  std::string date = HandBuiltFile();
  size_t at = date.find(std::string("\x25\x1e\x00", 3));
  ASSERT_NE(at, std::string::npos);
  date[at + 1] = '\x0c';
  absl::Status s = ParseParquet(date).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  // y REPEATED.
  std::string repeated = HandBuiltFile();
  at = repeated.find(std::string("\x15\x04\x25\x02\x18\x01y", 7));
  ASSERT_NE(at, std::string::npos);
  repeated[at + 3] = '\x04';
  s = ParseParquet(repeated).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_NE(std::string(s.message()).find("repeated"), std::string::npos) << s;
  // Codec LZ4_RAW (7) on x's chunk.
  std::string lz4 = HandBuiltFile();
  at = lz4.find(std::string("\x01x\x15\x00", 4));
  ASSERT_NE(at, std::string::npos);
  lz4[at + 3] = '\x0e';
  s = ParseParquet(lz4).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_NE(std::string(s.message()).find("LZ4_RAW"), std::string::npos) << s;
}

// Random damage to valid files of every layout: each parse must return
// (a table or an error), never crash, hang or allocate absurdly.
TEST(ParquetTest, SurvivesMutatedFiles) {
  std::vector<std::string> seeds = {HandBuiltFile()};
  const Table table = MixedTable(40, 5);
  for (ParquetCompression compression :
       {ParquetCompression::kUncompressed, ParquetCompression::kSnappy, ParquetCompression::kGzip,
        ParquetCompression::kZstd}) {
    for (int version : {1, 2}) {
      ParquetWriteOptions options;
      options.compression = compression;
      options.data_page_version = version;
      options.dictionary = version == 2;
      options.rows_per_page = 9;
      seeds.push_back(*SerializeParquet(table, options));
    }
  }
  std::mt19937 gen(7);
  int parsed = 0, rejected = 0;
  for (const std::string& seed : seeds) {
    for (int trial = 0; trial < 600; ++trial) {
      std::string f = seed;
      const int edits = 1 + gen() % 4;
      for (int e = 0; e < edits; ++e) {
        const size_t pos = gen() % f.size();
        switch (gen() % 4) {
          case 0:
            f[pos] = static_cast<char>(gen());
            break;
          case 1:
            f[pos] = static_cast<char>(f[pos] ^ (1 << (gen() % 8)));
            break;
          case 2:
            f.insert(pos, 1, static_cast<char>(gen()));
            break;
          case 3:
            f.erase(pos, 1 + gen() % 8);
            break;
        }
        if (f.empty()) f = "x";
      }
      // Most damage outside the magic would otherwise stop at the magic check.
      if (f.size() >= 8 && gen() % 2 == 0) {
        f.replace(0, 4, "PAR1");
        f.replace(f.size() - 4, 4, "PAR1");
      }
      absl::StatusOr<Table> t = ParseParquet(f);
      (t.ok() ? parsed : rejected)++;
      if (!t.ok()) {
        EXPECT_FALSE(t.status().message().empty());
      }
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(ParquetTest, FileRoundTripAndMissingFile) {
  const std::filesystem::path dir = testing::NewTempDir("parquet");
  const Table table = MixedTable(12, 6);
  ASSERT_TRUE(WriteParquetFile(table, dir / "t.parquet").ok());
  absl::StatusOr<Table> back = ReadParquetFile(dir / "t.parquet");
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameTable(table, *back);
  EXPECT_EQ(ReadParquetFile(dir / "absent.parquet").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadParquetFile(dir / "t.parquet", {}, 10).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------------------
// ParquetLayout::kFastparquet (against fastparquet itself: see
// parquet_python_diff_test).

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

ParquetWriteOptions Fastparquet() {
  ParquetWriteOptions options;
  options.layout = ParquetLayout::kFastparquet;
  return options;
}

// ---------------------------------------------------------------------------
// ParquetFileReader: a column of a row group at a time.

// Row group g's columns from `reader`, concatenated over the groups, as a
// Table: what ReadParquetFile gives.
Table ReadByRowGroups(ParquetFileReader& reader) {
  std::vector<Column> columns;
  for (const std::string& name : reader.ColumnNames()) {
    absl::StatusOr<Dtype> dtype = reader.ColumnDtype(name);
    EXPECT_TRUE(dtype.ok()) << dtype.status();
    Column column{name, dtype.value_or(Dtype::kObject), {}};
    for (int g = 0; g < reader.num_row_groups(); ++g) {
      absl::StatusOr<TypedColumn> chunk = reader.ReadColumn(g, name);
      EXPECT_TRUE(chunk.ok()) << chunk.status();
      if (!chunk.ok()) continue;
      EXPECT_EQ(chunk->dtype(), column.dtype) << name;
      EXPECT_EQ(chunk->size(), static_cast<size_t>(reader.row_group_rows(g)));
      for (size_t r = 0; r < chunk->size(); ++r) column.cells.push_back(chunk->CellAt(r));
    }
    columns.push_back(std::move(column));
  }
  return Table(std::move(columns));
}

TEST(ParquetFileReaderTest, RowGroupsReadAsTheWholeFile) {
  const std::filesystem::path dir = testing::NewTempDir("parquet_reader");
  // Nulls in some row groups only: the bool column with a null in its last
  // group is an object column in every group, as in the whole file's Table
  // (our own layout has no null counts: the reader decodes the chunks).
  Table table = MixedTable(40, 9);
  Column with_late_null{"late_null", Dtype::kFloat64, {}};
  Column flags_late_null{"flags_late_null", Dtype::kObject, {}};
  for (size_t r = 0; r < 40; ++r) {
    with_late_null.cells.emplace_back(r == 39 ? kNaN : static_cast<double>(r));
    flags_late_null.cells.emplace_back(r == 39 ? Cell() : Cell(r % 2 == 0));
  }
  table.mutable_columns().push_back(with_late_null);
  table.mutable_columns().push_back(flags_late_null);
  for (bool fastparquet : {false, true}) {
    for (int64_t group_rows : {0, 7, 13}) {
      ParquetWriteOptions options;
      Table written = table;
      if (fastparquet) {
        // The fastparquet layout (with its statistics' null counts) for what
        // it stores: numbers and bools.
        absl::StatusOr<Table> numeric =
            DropColumns(table, {"maybe", "text", "nothing", "flags_late_null"});
        ASSERT_TRUE(numeric.ok());
        written = *std::move(numeric);
        options = Fastparquet();
        options.fastparquet_row_group_rows = group_rows;
      } else if (group_rows != 0) {
        continue;  // our own layout has one row group
      }
      options.storage = {{"late_null", ParquetStorage::kDouble}};
      SCOPED_TRACE(::testing::Message() << "fastparquet " << fastparquet << " groups of "
                                        << group_rows);
      const std::filesystem::path path = dir / "t.parquet";
      ASSERT_TRUE(WriteParquetFile(written, path, options).ok());
      absl::StatusOr<Table> whole = ReadParquetFile(path);
      ASSERT_TRUE(whole.ok()) << whole.status();
      absl::StatusOr<ParquetFileReader> reader = ParquetFileReader::Open(path);
      ASSERT_TRUE(reader.ok()) << reader.status();
      EXPECT_EQ(reader->num_rows(), 40);
      if (group_rows == 7) EXPECT_EQ(reader->num_row_groups(), 6);
      ExpectSameTable(*whole, ReadByRowGroups(*reader));
    }
  }
}

TEST(ParquetFileReaderTest, UnknownColumnsAndRowGroups) {
  const std::filesystem::path dir = testing::NewTempDir("parquet_reader");
  Column ids{"id", Dtype::kFloat64, {1.0, 2.0, kNaN, 4.0}};
  ParquetWriteOptions options;
  options.storage = {{"id", ParquetStorage::kDouble}};
  ASSERT_TRUE(WriteParquetFile(Table({ids}), dir / "t.parquet", options).ok());
  absl::StatusOr<ParquetFileReader> reader = ParquetFileReader::Open(dir / "t.parquet");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(*reader->ColumnDtype("id"), Dtype::kFloat64);
  EXPECT_EQ(reader->ColumnDtype("absent").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(reader->ReadColumn(1, "id").status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(reader->ReadColumn(-1, "id").status().code(), absl::StatusCode::kOutOfRange);
}

TEST(ParquetFileReaderTest, ClearErrorsForBadFiles) {
  const std::filesystem::path dir = testing::NewTempDir("parquet_reader");
  EXPECT_EQ(ParquetFileReader::Open(dir / "absent.parquet").status().code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(WriteStringToFile(dir / "short.parquet", "PAR1").ok());
  absl::Status s = ParquetFileReader::Open(dir / "short.parquet").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("short.parquet: "), std::string::npos) << s;
  ASSERT_TRUE(WriteStringToFile(dir / "magic.parquet", "PAR1 no footer here PAR0").ok());
  EXPECT_EQ(ParquetFileReader::Open(dir / "magic.parquet").status().code(),
            absl::StatusCode::kInvalidArgument);
  // Every mutation of a real file either reads or fails cleanly, chunk by
  // chunk as for the whole file.
  absl::StatusOr<std::string> bytes = SerializeParquet(MixedTable(20, 3));
  ASSERT_TRUE(bytes.ok());
  std::mt19937 gen(5);
  for (int i = 0; i < 300; ++i) {
    std::string mutated = *bytes;
    const size_t at = gen() % mutated.size();
    mutated[at] = static_cast<char>(gen());
    ASSERT_TRUE(WriteStringToFile(dir / "m.parquet", mutated).ok());
    absl::StatusOr<ParquetFileReader> reader = ParquetFileReader::Open(dir / "m.parquet");
    if (!reader.ok()) continue;
    for (const std::string& name : reader->ColumnNames()) {
      for (int g = 0; g < reader->num_row_groups(); ++g) {
        (void)reader->ReadColumn(g, name);  // must not crash
      }
    }
  }
}

// ---------------------------------------------------------------------------
// FastparquetFileWriter: the kFastparquet file, a chunk at a time.

// The whole table's chunks, row group by row group, through the writer.
absl::Status StreamTable(const Table& table, const std::filesystem::path& path,
                         const ParquetWriteOptions& options) {
  std::vector<Column> schema;
  for (const Column& c : table.columns()) schema.push_back(Column{c.name, c.dtype, {}});
  ASSIGN_OR_RETURN(FastparquetFileWriter writer,
                   FastparquetFileWriter::Open(path, schema, table.num_rows(), options));
  for (const auto& [begin, end] : writer.RowGroups()) {
    for (const Column& c : table.columns()) {
      std::vector<Cell> cells(c.cells.begin() + begin, c.cells.begin() + end);
      RETURN_IF_ERROR(writer.WriteChunk(TypedColumn::Cells(c.name, c.dtype, std::move(cells))));
    }
  }
  return writer.Close();
}

TEST(FastparquetFileWriterTest, WritesWhatWriteParquetFileWrites) {
  const std::filesystem::path dir = testing::NewTempDir("fastparquet_writer");
  for (size_t rows : {0, 1, 9, 100}) {
    absl::StatusOr<Table> numeric = DropColumns(MixedTable(rows, 7), {"maybe", "text", "nothing"});
    ASSERT_TRUE(numeric.ok());
    for (int64_t group_rows : {0, 1, 7, 50'000'000}) {
      ParquetWriteOptions options = Fastparquet();
      options.fastparquet_row_group_rows = group_rows;
      options.compression = group_rows == 7 ? ParquetCompression::kUncompressed
                                            : ParquetCompression::kSnappy;
      SCOPED_TRACE(::testing::Message() << rows << " rows, groups of " << group_rows);
      ASSERT_TRUE(WriteParquetFile(*numeric, dir / "whole.parquet", options).ok());
      absl::Status s = StreamTable(*numeric, dir / "chunks.parquet", options);
      ASSERT_TRUE(s.ok()) << s;
      EXPECT_EQ(*ReadFileToString(dir / "chunks.parquet"),
                *ReadFileToString(dir / "whole.parquet"));
    }
  }
}

TEST(FastparquetFileWriterTest, RefusesWrongChunksAndEarlyClose) {
  const std::filesystem::path dir = testing::NewTempDir("fastparquet_writer");
  const std::vector<Column> schema = {Column{"a", Dtype::kInt64, {}},
                                      Column{"b", Dtype::kFloat64, {}}};
  ParquetWriteOptions options = Fastparquet();
  // The schema and options WriteParquetFile refuses.
  EXPECT_EQ(FastparquetFileWriter::Open(dir / "x", {Column{"s", Dtype::kObject, {}}}, 1, options)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(FastparquetFileWriter::Open(dir / "x", schema, 1, ParquetWriteOptions()).ok());
  EXPECT_FALSE(FastparquetFileWriter::Open(dir / "x", {}, 1, options).ok());
  EXPECT_FALSE(FastparquetFileWriter::Open(dir / "no_dir" / "x", schema, 1, options).ok());

  absl::StatusOr<FastparquetFileWriter> writer =
      FastparquetFileWriter::Open(dir / "x", schema, 2, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  EXPECT_EQ(writer->RowGroups(), (std::vector<std::pair<size_t, size_t>>{{0, 2}}));
  EXPECT_EQ(writer->WriteChunk(TypedColumn::Doubles("b", {1, 2})).code(),
            absl::StatusCode::kInvalidArgument);  // "a" comes first
  EXPECT_EQ(writer->WriteChunk(TypedColumn::Ints("a", {1})).code(),
            absl::StatusCode::kInvalidArgument);  // one row short
  EXPECT_EQ(writer->WriteChunk(TypedColumn::Doubles("a", {1, 2})).code(),
            absl::StatusCode::kInvalidArgument);  // another dtype
  EXPECT_TRUE(writer->WriteChunk(TypedColumn::Ints("a", {1, 2})).ok());
  EXPECT_EQ(writer->Close().code(), absl::StatusCode::kFailedPrecondition);  // "b" missing
  EXPECT_TRUE(writer->WriteChunk(TypedColumn::Doubles("b", {0.5, kNaN})).ok());
  EXPECT_EQ(writer->WriteChunk(TypedColumn::Ints("a", {1, 2})).code(),
            absl::StatusCode::kFailedPrecondition);  // all written
  ASSERT_TRUE(writer->Close().ok());
  absl::StatusOr<Table> back = ReadParquetFile(dir / "x");
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameTable(Table({Column{"a", Dtype::kInt64, {int64_t{1}, int64_t{2}}},
                         Column{"b", Dtype::kFloat64, {0.5, kNaN}}}),
                  *back);
}

// pd.DataFrame({"a": [1, 2, 3], "b": [0.5, np.nan, -0.0]}).to_parquet(path,
// index=False, engine="fastparquet") on pandas 2.2.2 and fastparquet 2024.5.0.
TEST(ParquetTest, FastparquetLayoutIsFastparquetsFile) {
  const std::string expected = Unhex(
      "504152311500154c15422c15061500150615080000261c02000000060101000901010e01013c030000000000"
      "000000000000000000001500153c15382c150615001506150800001e1802000000030500050104e03f050728"
      "00008000000000000000001502193c4806736368656d611504001504158001150218016100150a1580011502"
      "180162001606191c192c26081c15041915001918016115021606166e1664190016083c180803000000000000"
      "0018080100000000000000160000191c150015001502000000266c1c150a1915001918016215021606165e16"
      "5a1900166c3c1808000000000000e03f18080000000000000080160200191c15001500150200000016cc0116"
      "0600191c180670616e64617318e0037b22636f6c756d6e5f696e6465786573223a205b7b226669656c645f6e"
      "616d65223a206e756c6c2c20226d65746164617461223a206e756c6c2c20226e616d65223a206e756c6c2c20"
      "226e756d70795f74797065223a20226f626a656374222c202270616e6461735f74797065223a20226d697865"
      "642d696e7465676572227d5d2c2022636f6c756d6e73223a205b7b226669656c645f6e616d65223a20226122"
      "2c20226d65746164617461223a206e756c6c2c20226e616d65223a202261222c20226e756d70795f74797065"
      "223a2022696e743634222c202270616e6461735f74797065223a2022696e743634227d2c207b226669656c64"
      "5f6e616d65223a202262222c20226d65746164617461223a206e756c6c2c20226e616d65223a202262222c20"
      "226e756d70795f74797065223a2022666c6f61743634222c202270616e6461735f74797065223a2022666c6f"
      "61743634227d5d2c202263726561746f72223a207b226c696272617279223a20226661737470617271756574"
      "222c202276657273696f6e223a2022323032342e352e30227d2c2022696e6465785f636f6c756d6e73223a20"
      "5b5d2c202270616e6461735f76657273696f6e223a2022322e322e32222c2022706172746974696f6e5f636f"
      "6c756d6e73223a205b5d7d00182d66617374706172717565742d707974686f6e2076657273696f6e20323032"
      "342e352e3020286275696c6420302900c502000050415231");
  const Table table({Column{"a", Dtype::kInt64, {int64_t{1}, int64_t{2}, int64_t{3}}},
                     Column{"b", Dtype::kFloat64, {0.5, kNaN, -0.0}}});
  absl::StatusOr<std::string> bytes = SerializeParquet(table, Fastparquet());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, expected);
  absl::StatusOr<Table> back = ParseParquet(*bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameTable(table, *back);
  // The default layout is still ours.
  absl::StatusOr<std::string> ours = SerializeParquet(table);
  ASSERT_TRUE(ours.ok());
  EXPECT_NE(ours->find("mlebench parquet writer 1"), std::string::npos);
}

TEST(ParquetTest, FastparquetLayoutRoundTripsAndIsDeterministic) {
  for (size_t rows : {0, 1, 8, 9, 1000}) {
    absl::StatusOr<Table> dropped = DropColumns(MixedTable(rows, 4), {"maybe", "text", "nothing"});
    ASSERT_TRUE(dropped.ok());
    Table table = *std::move(dropped);
    table.mutable_columns().push_back(Column{"small", Dtype::kInt64, {}});
    table.mutable_columns().push_back(Column{"single", Dtype::kFloat64, {}});
    for (size_t r = 0; r < rows; ++r) {
      table.mutable_columns()[3].cells.emplace_back(static_cast<int64_t>(r % 300) - 150);
      table.mutable_columns()[4].cells.emplace_back(r % 5 == 0 ? kNaN : r * 0.25);
    }
    for (int64_t group_rows : {0, 1, 7, 50'000'000}) {
      ParquetWriteOptions options = Fastparquet();
      options.fastparquet_row_group_rows = group_rows;
      options.compression = group_rows == 7 ? ParquetCompression::kUncompressed
                                            : ParquetCompression::kSnappy;
      options.storage = {{"small", ParquetStorage::kInt16}, {"single", ParquetStorage::kFloat}};
      absl::StatusOr<std::string> a = SerializeParquet(table, options);
      absl::StatusOr<std::string> b = SerializeParquet(table, options);
      ASSERT_TRUE(a.ok() && b.ok()) << a.status();
      EXPECT_EQ(*a, *b);
      EXPECT_NE(a->find("fastparquet-python version 2024.5.0 (build 0)"), std::string::npos);
      EXPECT_NE(a->find("\"numpy_type\": \"int16\""), std::string::npos);
      absl::StatusOr<Table> back = ParseParquet(*a);
      ASSERT_TRUE(back.ok()) << back.status();
      ExpectSameTable(table, *back);
    }
  }
}

TEST(ParquetTest, FastparquetLayoutRejectsWhatFastparquetWouldNotWriteSo) {
  const Table ints({Column{"a", Dtype::kInt64, {int64_t{1}}}});
  for (auto change : std::vector<void (*)(ParquetWriteOptions&)>{
           [](ParquetWriteOptions& o) { o.compression = ParquetCompression::kGzip; },
           [](ParquetWriteOptions& o) { o.compression = ParquetCompression::kZstd; },
           [](ParquetWriteOptions& o) { o.dictionary = true; },
           [](ParquetWriteOptions& o) { o.data_page_version = 2; },
           [](ParquetWriteOptions& o) { o.rows_per_page = 10; },
           [](ParquetWriteOptions& o) { o.fastparquet_row_group_rows = -1; },
           [](ParquetWriteOptions& o) { o.storage["a"] = ParquetStorage::kDouble; }}) {
    ParquetWriteOptions options = Fastparquet();
    change(options);
    EXPECT_EQ(SerializeParquet(ints, options).status().code(),
              absl::StatusCode::kInvalidArgument);
  }
  const std::vector<Table> bad = {
      Table({Column{"s", Dtype::kObject, {std::string("x")}}}),
      Table({Column{"b", Dtype::kBool, {std::monostate{}}}}),
      Table({Column{"i", Dtype::kInt64, {std::monostate{}}}}),
      Table({Column{"bad\xff", Dtype::kInt64, {int64_t{1}}}}),
  };
  for (const Table& table : bad) {
    EXPECT_EQ(SerializeParquet(table, Fastparquet()).status().code(),
              absl::StatusCode::kInvalidArgument)
        << table.columns()[0].name;
  }
}

TEST(ParquetTest, FastparquetRowGroupsAndPages) {
  using parquet_internal::FastparquetRowGroupStarts;
  EXPECT_TRUE(FastparquetRowGroupStarts(0, 10).empty());
  EXPECT_EQ(FastparquetRowGroupStarts(5, 0), std::vector<size_t>({0}));
  EXPECT_EQ(FastparquetRowGroupStarts(10, 10), std::vector<size_t>({0}));
  // 11 rows in groups of at most 10: two groups of 6 and 5.
  EXPECT_EQ(FastparquetRowGroupStarts(11, 10), std::vector<size_t>({0, 6}));
  EXPECT_EQ(FastparquetRowGroupStarts(7, 3), std::vector<size_t>({0, 3, 6}));
  // Kaggle's ~131M-row train_meta: three groups under fastparquet's 50M.
  EXPECT_EQ(FastparquetRowGroupStarts(131'953'924, 50'000'000),
            std::vector<size_t>({0, 43'984'642, 87'969'284}));
  EXPECT_EQ(parquet_internal::FastparquetRowsPerPage(8), 64'527'753u);
  EXPECT_EQ(parquet_internal::FastparquetRowsPerPage(4), 127'100'121u);
  EXPECT_EQ(parquet_internal::FastparquetRowsPerPage(0.125), 2'097'152'000u);
}

TEST(ParquetTest, FastparquetLevelsAndBooleans) {
  using parquet_internal::FastparquetDefinitionLevels;
  const uint8_t all[3] = {1, 1, 1};
  EXPECT_EQ(FastparquetDefinitionLevels(all, 3), std::string("\x02\0\0\0\x06\x01", 6));
  const uint8_t some[8] = {1, 0, 1, 1, 1, 1, 1, 1};
  // 8 levels: two bytes, the second a whole byte of padding.
  EXPECT_EQ(FastparquetDefinitionLevels(some, 8), std::string("\x03\0\0\0\x05\xfd\x00", 7));
  EXPECT_EQ(parquet_internal::FastparquetPackedBooleans(some, 3), std::string("\x05", 1));
  EXPECT_EQ(parquet_internal::FastparquetPackedBooleans(some, 0), std::string("\0", 1));
}

TEST(ParquetTest, FastparquetPandasMetadataEscapesNames) {
  absl::StatusOr<std::string> json = parquet_internal::FastparquetPandasMetadata(
      {{"\xc3\xa9\"\\\n", "int16"}, {"b", "bool"}});
  ASSERT_TRUE(json.ok());
  EXPECT_NE(json->find("{\"field_name\": \"\\u00e9\\\"\\\\\\n\", \"metadata\": null, \"name\": "
                       "\"\\u00e9\\\"\\\\\\n\", \"numpy_type\": \"int16\", \"pandas_type\": "
                       "\"int16\"}, {\"field_name\": \"b\""),
            std::string::npos)
      << *json;
  EXPECT_FALSE(parquet_internal::FastparquetPandasMetadata({{"\xff", "int64"}}).ok());
}

// numpy's baseline max/min: which zero wins a tie (measured on numpy 1.26.4
// with NPY_DISABLE_CPU_FEATURES set to every dispatched feature).
TEST(ParquetTest, NumpyBaselineNanExtremePicksNumpysZero) {
  auto max_of = [](std::vector<double> v) {
    return parquet_internal::NumpyBaselineNanExtreme<double>(
        v.size(), [&](size_t i) { return v[i]; }, true);
  };
  EXPECT_FALSE(max_of({}).has_value());
  EXPECT_FALSE(max_of({kNaN, kNaN}).has_value());
  EXPECT_EQ(*max_of({kNaN, -INFINITY}), -INFINITY);
  // Lanes over values 1..: {-0.0, 0.0} -> lane 1 wins: 0.0 (then the tail).
  EXPECT_FALSE(std::signbit(*max_of({-0.0, -0.0, 0.0})));
  EXPECT_TRUE(std::signbit(*max_of({0.0, -0.0, -0.0})));
  // Lane 1 (value 2, -0.0) beats lane 0 (value 1, 0.0) in the fold.
  EXPECT_TRUE(std::signbit(*max_of({-1.0, 0.0, -0.0})));
  // The tail value 3 comes last and wins the tie.
  EXPECT_FALSE(std::signbit(*max_of({-1.0, -0.0, -0.0, 0.0})));
  // Missing values count as -inf, in their lanes.
  EXPECT_FALSE(std::signbit(*max_of({kNaN, 0.0, kNaN})));
}

TEST(ParquetTest, SnapCompressDecompresses) {
  std::mt19937 gen(7);
  for (size_t size : {0, 1, 16, 17, 100, 65536, 65537, 300000}) {
    std::string input;
    for (size_t i = 0; i < size; ++i) {
      input.push_back(static_cast<char>(i % 97 < 40 ? gen() % 4 : gen()));
    }
    const std::string compressed = parquet_internal::SnapCompress(input);
    size_t n = 0;
    ASSERT_EQ(snappy_uncompressed_length(compressed.data(), compressed.size(), &n), SNAPPY_OK);
    std::string back(n, '\0');
    ASSERT_EQ(snappy_uncompress(compressed.data(), compressed.size(), back.data(), &n), SNAPPY_OK)
        << size;
    EXPECT_EQ(back, input) << size;
  }
  // snap and libsnappy 1.1.9 part on this page of fastparquet's (3 values
  // and their levels): snap finds the copy of the 8 bytes at offset 9.
  const std::string page = Unhex(
      "020000000601000000000000f03f0000000000000080000000000000f03f0000000000000000");
  EXPECT_EQ(parquet_internal::SnapCompress(page),
            Unhex("261802000000060100050104f03f050708000080090824f03f0000000000000000"));
}

}  // namespace
}  // namespace mlebench
