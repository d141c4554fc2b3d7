#ifndef MLEBENCH_FORMATS_PARQUET_H_
#define MLEBENCH_FORMATS_PARQUET_H_

// Apache Parquet files with flat schemas, read into and written from a Table
// the way pandas' read_parquet / DataFrame.to_parquet see them.
//
// Reader: the footer's Thrift compact protocol, any number of row groups and
// pages, data pages v1 and v2, dictionary pages, value encodings PLAIN,
// PLAIN_DICTIONARY / RLE_DICTIONARY (and RLE for booleans), RLE/bit-packed
// definition levels, codecs UNCOMPRESSED, SNAPPY, GZIP and ZSTD. Physical
// types BOOLEAN, INT32, INT64, FLOAT, DOUBLE and BYTE_ARRAY. Anything else
// (nested or repeated columns, INT96, FIXED_LEN_BYTE_ARRAY, dates,
// timestamps, decimals, other encodings or codecs) is an UnimplementedError
// naming the feature; damaged input is an InvalidArgumentError with the
// reason. Neither ever crashes.
//
// Column dtypes, as pyarrow's to_pandas gives them (narrower numpy types
// widen to the Table's):
//   INT32/INT64 (any bit width)   -> kInt64; kFloat64 with NaN if a value is null
//   FLOAT/DOUBLE                  -> kFloat64; null -> NaN
//   BOOLEAN                       -> kBool; kObject (bool / missing) if a value is null
//   BYTE_ARRAY (UTF8 or not)      -> kObject strings; null -> missing
// pandas index columns stored in the file (e.g. "__index_level_0__", or a
// named index such as Kaggle's "event_id") come back as ordinary columns in
// file order; pandas' metadata is not interpreted.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

enum class ParquetCompression { kUncompressed, kSnappy, kGzip, kZstd };

struct ParquetReadOptions {
  // Files claiming more rows than this are refused (a guard against absurd
  // sizes in damaged footers; Kaggle's largest tables are ~1.4e8 rows).
  int64_t max_rows = int64_t{1} << 30;
};

// pd.read_parquet of a file's bytes.
absl::StatusOr<Table> ParseParquet(std::string_view bytes, const ParquetReadOptions& options = {});

// ParseParquet on a file; refuses files over `max_file_bytes`.
absl::StatusOr<Table> ReadParquetFile(const std::filesystem::path& path,
                                      const ParquetReadOptions& options = {},
                                      int64_t max_file_bytes = int64_t{1} << 36);

// A Parquet file read one column of one row group at a time, for files whose
// Table would not fit in memory (a Table costs about 40 bytes a cell; a
// typed column 8 bytes a number). Open reads and checks the footer only;
// ReadColumn reads that column chunk's bytes from the file and decodes them.
// Concatenating ReadColumn(g, name) over the row groups g gives the values
// and dtype of ReadParquetFile's column `name` (an integer column with a null
// in any row group is float64 in every one). Same formats, limits and errors
// as ReadParquetFile; messages start with the file's name.
class ParquetFileReader {
 public:
  static absl::StatusOr<ParquetFileReader> Open(const std::filesystem::path& path,
                                                const ParquetReadOptions& options = {});
  ParquetFileReader(ParquetFileReader&&) noexcept;
  ParquetFileReader& operator=(ParquetFileReader&&) noexcept;
  ~ParquetFileReader();

  int64_t num_rows() const;
  int num_row_groups() const;
  int64_t row_group_rows(int group) const;
  // The columns in file order.
  std::vector<std::string> ColumnNames() const;

  // The dtype of ReadParquetFile's column `name`. For an integer or boolean
  // column that may hold nulls, that takes the footer's null counts, or,
  // where a chunk has none, decoding that chunk. NotFoundError for an unknown
  // name.
  absl::StatusOr<Dtype> ColumnDtype(std::string_view name);

  // Column `name` of row group `group` (0 <= group < num_row_groups()), with
  // ColumnDtype's dtype: kInt64, kFloat64 and kBool as arrays, text as kText
  // (the column owns the strings), bools with nulls as kCells.
  absl::StatusOr<TypedColumn> ReadColumn(int group, std::string_view name);

 private:
  struct State;
  explicit ParquetFileReader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// How the writer stores a column.
enum class ParquetStorage {
  kInt16,    // INT32 annotated INT_16 (pandas int16)
  kInt32,    // INT32 (pandas int32)
  kInt64,    // INT64
  kFloat,    // FLOAT (pandas float32; values are rounded to float)
  kDouble,   // DOUBLE
  kBoolean,  // BOOLEAN
  kString,   // BYTE_ARRAY annotated UTF8
};

// The file layout: which writer's bytes SerializeParquet reproduces.
enum class ParquetLayout {
  // Our own: see SerializeParquet.
  kDefault,
  // The bytes fastparquet 2024.5.0 writes for DataFrame.to_parquet(path,
  // index=False, engine="fastparquet", compression=C, row_group_offsets=R) on
  // pandas 2.2.2 (upstream's environment), C being `compression` (kSnappy:
  // pandas' default; kUncompressed: None) and R `fastparquet_row_group_rows`,
  // for the DataFrame whose columns are the table's, in order, with these
  // numpy dtypes: kInt64 -> int64 (int32 / int16 with storage kInt32 /
  // kInt16), kFloat64 -> float64 (float32 with storage kFloat), kBool -> bool;
  // its index a RangeIndex, its columns index unnamed and of object dtype, no
  // attrs. That is: every column OPTIONAL with definition levels, one or more
  // row groups of at most R rows, PLAIN v1 pages of up to 500 MiB, each
  // padded with 8 zero bytes, deprecated min/max statistics for the numeric
  // columns, null counts for all, the "pandas" metadata and fastparquet's
  // created_by. NaN (and missing) float cells are nulls, as fastparquet
  // stores them. One byte can differ from what fastparquet writes on some
  // machines: the sign of a float column's min or max statistic when that is
  // zero and the row group holds both 0.0 and -0.0; pandas takes it from
  // numpy's max/min kernel, which picks the other zero with AVX2 or AVX-512
  // than with the SSE2 baseline that this layout follows (see
  // formats/internal/fastparquet_layout.h). InvalidArgumentError for other
  // dtypes or storage, missing values in int or bool columns, names that are
  // not UTF-8, GZIP or ZSTD (fastparquet compresses those with other
  // libraries' bytes), or non-default dictionary, data_page_version or
  // rows_per_page.
  kFastparquet,
};

struct ParquetWriteOptions {
  ParquetLayout layout = ParquetLayout::kDefault;
  ParquetCompression compression = ParquetCompression::kSnappy;
  // Storage per column name; other columns follow their dtype: kInt64 ->
  // kInt64, kFloat64 -> kDouble, kBool -> kBoolean, kObject -> kString (or
  // kBoolean when its present cells are all bools).
  std::map<std::string, ParquetStorage> storage;
  // The defaults give plain files; these exist so that tests can produce the
  // other page layouts the reader must handle.
  bool dictionary = false;    // dictionary pages for all but BOOLEAN columns
  int data_page_version = 1;  // 1 or 2
  int64_t rows_per_page = 0;  // 0: one data page per column
  // kFastparquet only: fastparquet.write's row_group_offsets as an int (its
  // default; 0: one row group). Must be >= 0.
  int64_t fastparquet_row_group_rows = 50'000'000;
};

// With layout kDefault: DataFrame.to_parquet-like bytes for `table`: one row
// group, PLAIN values, a fixed created_by string, no statistics, so that the
// same table and options always give the same bytes. Columns holding a missing value are
// OPTIONAL (null for NaN / missing cells, as pyarrow stores pandas' NaN),
// others REQUIRED. InvalidArgumentError if a cell does not fit its column's
// storage (text in a numeric column, a missing value in an integer one, an
// integer out of its range), for duplicate or empty column names, or a table
// without columns. With layout kFastparquet: see there (deterministic too).
absl::StatusOr<std::string> SerializeParquet(const Table& table,
                                             const ParquetWriteOptions& options = {});

absl::Status WriteParquetFile(const Table& table, const std::filesystem::path& path,
                              const ParquetWriteOptions& options = {});

// Writes a file in the kFastparquet layout one column chunk at a time, for
// tables too large to hold as cells: the bytes WriteParquetFile writes, with
// the same `options` (layout kFastparquet), for the table of `rows` rows
// whose columns have `schema`'s names and dtypes (their cells are ignored)
// and, row group by row group, the values given to WriteChunk. Memory: one
// chunk's values and bytes at a time.
class FastparquetFileWriter {
 public:
  // Creates (truncates) `path`. The errors WriteParquetFile gives for the
  // schema and options.
  static absl::StatusOr<FastparquetFileWriter> Open(const std::filesystem::path& path,
                                                    const std::vector<Column>& schema,
                                                    size_t rows,
                                                    const ParquetWriteOptions& options);
  FastparquetFileWriter(FastparquetFileWriter&&) noexcept;
  FastparquetFileWriter& operator=(FastparquetFileWriter&&) noexcept;
  ~FastparquetFileWriter();

  // The row groups as [first row, end row) ranges, in file order.
  std::vector<std::pair<size_t, size_t>> RowGroups() const;

  // The next chunk: the rows of the current row group in the next column
  // (columns in schema order, then the next row group). InvalidArgumentError
  // for a column of another name, length or dtype than expected, or values
  // that WriteParquetFile would refuse; FailedPreconditionError when every
  // chunk was written.
  absl::Status WriteChunk(const TypedColumn& values);

  // Writes the footer and closes the file; FailedPreconditionError if a
  // chunk is missing.
  absl::Status Close();

 private:
  struct State;
  explicit FastparquetFileWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_PARQUET_H_
