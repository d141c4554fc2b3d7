// The pieces both layouts of the Parquet writer (formats/parquet_writer.cc,
// pyarrow's; formats/fastparquet_writer.cc, fastparquet's) share: a column
// planned into its PLAIN values and presence, page headers and page
// bookkeeping, and the checks on a table before it is written. Not for other
// callers.
#ifndef MLEBENCH_FORMATS_INTERNAL_PARQUET_WRITE_PLAN_H_
#define MLEBENCH_FORMATS_INTERNAL_PARQUET_WRITE_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "formats/internal/thrift_compact.h"
#include "formats/parquet.h"

namespace mlebench::parquet_internal {

// Appends `v` as four little-endian bytes.
void PutU32(std::string* out, uint32_t v);

struct WriteColumn {
  std::string name;
  ParquetStorage storage;
  int physical = 0;
  bool optional = false;
  std::vector<uint8_t> present;
  // The PLAIN bytes of the non-null values back to back (booleans one byte,
  // 0 or 1, each); value i is data[offsets[i], offsets[i + 1]). One buffer,
  // not a string per value, to keep large tables' memory small.
  std::string data;
  std::vector<size_t> offsets = {0};

  size_t num_values() const { return offsets.size() - 1; }
  std::string_view Value(size_t i) const {
    return std::string_view(data).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
};

// The storage's name as error messages give it ("int32", "string", ...).
std::string StorageName(ParquetStorage s);

// Plans rows [begin, min(end, rows)) of `column`.
absl::StatusOr<WriteColumn> PlanColumn(const Column& column, const ParquetWriteOptions& options,
                                       size_t begin = 0, size_t end = SIZE_MAX);
// All rows of `column`.
absl::StatusOr<WriteColumn> PlanColumn(const TypedColumn& column,
                                       const ParquetWriteOptions& options);

// A PageHeader of page `type` whose other fields `body` writes.
std::string PageHeaderBytes(int64_t type, size_t uncompressed, size_t compressed,
                            const std::function<void(ThriftWriter&)>& body);

// InvalidArgumentError unless `table` can be written with `options`: columns
// with distinct, non-empty names and equal lengths, a data page version of 1
// or 2, rows_per_page >= 0.
absl::Status CheckWritable(const Table& table, const ParquetWriteOptions& options);

// Where one column chunk lies in the file, for its ColumnMetaData.
struct ChunkInfo {
  int64_t start = 0, data_offset = 0, dict_offset = -1, compressed = 0, uncompressed = 0;
};

// Appends a page (its header, then its body) to `file` and counts it in `info`.
void AppendPage(const std::string& header, const std::string& body, size_t uncompressed_body,
                std::string& file, ChunkInfo& info);

}  // namespace mlebench::parquet_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_PARQUET_WRITE_PLAN_H_
