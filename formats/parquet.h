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

struct ParquetWriteOptions {
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
};

// DataFrame.to_parquet-like bytes for `table`: one row group, PLAIN values,
// a fixed created_by string, no statistics, so that the same table and
// options always give the same bytes. Columns holding a missing value are
// OPTIONAL (null for NaN / missing cells, as pyarrow stores pandas' NaN),
// others REQUIRED. InvalidArgumentError if a cell does not fit its column's
// storage (text in a numeric column, a missing value in an integer one, an
// integer out of its range), for duplicate or empty column names, or a table
// without columns.
absl::StatusOr<std::string> SerializeParquet(const Table& table,
                                             const ParquetWriteOptions& options = {});

absl::Status WriteParquetFile(const Table& table, const std::filesystem::path& path,
                              const ParquetWriteOptions& options = {});

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_PARQUET_H_
