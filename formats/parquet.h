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
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"

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

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_PARQUET_H_
