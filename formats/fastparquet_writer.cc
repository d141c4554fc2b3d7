// The Parquet writer's kFastparquet layout (fastparquet 2024.5.0's files):
// whole in memory (SerializeFastparquet) or chunk by chunk to a file
// (FastparquetFileWriter).
#include "formats/internal/fastparquet_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/internal/fastparquet_layout.h"
#include "formats/internal/parquet_format.h"
#include "formats/internal/parquet_write_plan.h"
#include "formats/internal/thrift_compact.h"
#include "formats/parquet.h"

namespace mlebench {
namespace parquet_internal {
namespace {

// ---------------------------------------------------------------------------
// The fastparquet layout (ParquetLayout::kFastparquet).

// How fastparquet declares a column of a numpy dtype.
struct FastparquetType {
  std::string numpy_type;    // the pandas metadata's numpy_type
  int64_t type_length = 0;   // SchemaElement.type_length: the dtype's bits
  int64_t converted = -1;    // SchemaElement.converted_type, -1 for none
  double bytes_per_value = 0;
  bool numeric = false;      // statistics with min and max (stats="auto")
  bool nullable = false;     // NaN cells are nulls; missing values elsewhere are refused
};

// The numpy dtype the preparer's DataFrame would hold the column in.
absl::StatusOr<FastparquetType> FastparquetTypeOf(const Column& column, ParquetStorage storage) {
  using S = ParquetStorage;
  if (column.dtype == Dtype::kInt64 && storage == S::kInt64) {
    return FastparquetType{"int64", 64, -1, 8, true, false};
  }
  if (column.dtype == Dtype::kInt64 && storage == S::kInt32) {
    return FastparquetType{"int32", 32, -1, 4, true, false};
  }
  if (column.dtype == Dtype::kInt64 && storage == S::kInt16) {
    return FastparquetType{"int16", 16, kInt16, 4, true, false};
  }
  if (column.dtype == Dtype::kFloat64 && storage == S::kDouble) {
    return FastparquetType{"float64", 64, -1, 8, true, true};
  }
  if (column.dtype == Dtype::kFloat64 && storage == S::kFloat) {
    return FastparquetType{"float32", 32, -1, 4, true, true};
  }
  if (column.dtype == Dtype::kBool && storage == S::kBoolean) {
    return FastparquetType{"bool", 1, -1, 0.125, false, false};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("column '", column.name, "': the fastparquet layout stores int64, float64 and ",
                   "bool columns (int32 / int16 / float32 by storage), not ",
                   std::string(DtypeName(column.dtype)), " as ", StorageName(storage)));
}

absl::Status CheckFastparquetOptions(const ParquetWriteOptions& options) {
  if (options.compression != ParquetCompression::kSnappy &&
      options.compression != ParquetCompression::kUncompressed) {
    return absl::InvalidArgumentError(
        "the fastparquet layout is snappy or uncompressed (fastparquet's GZIP and ZSTD bytes "
        "come from other compressors)");
  }
  if (options.dictionary || options.data_page_version != 1 || options.rows_per_page != 0) {
    return absl::InvalidArgumentError(
        "the fastparquet layout has fastparquet's own pages: no dictionary, data_page_version, "
        "or rows_per_page options");
  }
  if (options.fastparquet_row_group_rows < 0) {
    return absl::InvalidArgumentError("fastparquet_row_group_rows must be >= 0");
  }
  return absl::OkStatus();
}

// One column of the schema, as planned on no rows.
struct FastparquetColumn {
  std::string name;
  int physical = 0;
  FastparquetType type;
};

// One column chunk's footer facts.
struct FastparquetChunk {
  ChunkInfo info;
  int64_t pages = 0, nulls = 0;
  std::optional<std::pair<std::string, std::string>> max_min;  // PLAIN bytes
};

// The PLAIN bytes of the values pandas' Series.max() and min() give for the
// chunk's rows, or none for a column of NaN only.
template <typename T>
std::optional<std::pair<std::string, std::string>> FloatMaxMin(const WriteColumn& w) {
  std::vector<T> values;
  values.reserve(w.present.size());
  for (size_t row = 0, v = 0; row < w.present.size(); ++row) {
    T x = std::numeric_limits<T>::quiet_NaN();
    if (w.present[row]) std::memcpy(&x, w.Value(v++).data(), sizeof(T));
    values.push_back(x);
  }
  const auto get = [&](size_t i) { return values[i]; };
  const std::optional<T> max = NumpyBaselineNanExtreme<T>(values.size(), get, /*max=*/true);
  const std::optional<T> min = NumpyBaselineNanExtreme<T>(values.size(), get, /*max=*/false);
  if (!max.has_value() || !min.has_value()) return std::nullopt;
  return std::make_pair(std::string(reinterpret_cast<const char*>(&*max), sizeof(T)),
                        std::string(reinterpret_cast<const char*>(&*min), sizeof(T)));
}

template <typename T>
std::pair<std::string, std::string> IntMaxMin(const WriteColumn& w) {
  size_t max = 0, min = 0;
  auto at = [&](size_t i) {
    T x;
    std::memcpy(&x, w.Value(i).data(), sizeof(T));
    return x;
  };
  for (size_t i = 1; i < w.num_values(); ++i) {
    if (at(i) > at(max)) max = i;
    if (at(i) < at(min)) min = i;
  }
  return {std::string(w.Value(max)), std::string(w.Value(min))};
}

std::optional<std::pair<std::string, std::string>> FastparquetMaxMin(const WriteColumn& w,
                                                                     const FastparquetType& t) {
  if (!t.numeric || w.present.empty()) return std::nullopt;
  switch (w.physical) {
    case kDouble:
      return FloatMaxMin<double>(w);
    case kFloat:
      return FloatMaxMin<float>(w);
    case kInt64:
      return IntMaxMin<int64_t>(w);
    case kInt32:
      return IntMaxMin<int32_t>(w);
  }
  return std::nullopt;
}

// One v1 data page of rows [begin, end), whose values start at `value_pos`:
// definition levels, PLAIN values, 8 zero bytes; compressed with snap's
// Snappy (see SnapCompress), as fastparquet's cramjam compresses it.
void AppendFastparquetPage(const WriteColumn& w, size_t begin, size_t end, size_t value_pos,
                           size_t non_null, ParquetCompression compression, std::string& file,
                           ChunkInfo& info) {
  std::string raw = FastparquetDefinitionLevels(w.present.data() + begin, end - begin);
  const std::string_view values =
      std::string_view(w.data).substr(w.offsets[value_pos],
                                      w.offsets[value_pos + non_null] - w.offsets[value_pos]);
  if (w.physical == kBoolean) {
    raw += FastparquetPackedBooleans(reinterpret_cast<const uint8_t*>(values.data()), non_null);
  } else {
    raw += values;
  }
  raw.append(8, '\0');
  const std::string body =
      compression == ParquetCompression::kSnappy ? SnapCompress(raw) : raw;
  const std::string header =
      PageHeaderBytes(kDataPage, raw.size(), body.size(), [&](ThriftWriter& t) {
        t.StructField(5);
        t.I32(1, static_cast<int64_t>(end - begin));
        t.I32(2, kPlain);
        t.I32(3, kRle);
        t.I32(4, kBitPacked);
        t.EndStruct();
      });
  AppendPage(header, body, raw.size(), file, info);
}

// A row group's chunk of `w` (planned on that row group's rows), appended
// to `file`, which holds the file's bytes from offset `file_offset` on.
FastparquetChunk AppendFastparquetChunk(const WriteColumn& w, const FastparquetType& type,
                                        ParquetCompression compression, std::string& file,
                                        int64_t file_offset) {
  FastparquetChunk chunk;
  chunk.info.start = chunk.info.data_offset = file_offset + static_cast<int64_t>(file.size());
  const size_t rows = w.present.size();
  const size_t page_rows = FastparquetRowsPerPage(type.bytes_per_value);
  size_t value_pos = 0;
  for (size_t begin = 0; begin < rows; begin += page_rows) {
    const size_t end = std::min(rows, begin + page_rows);
    size_t non_null = 0;
    for (size_t i = begin; i < end; ++i) non_null += w.present[i];
    AppendFastparquetPage(w, begin, end, value_pos, non_null, compression, file, chunk.info);
    value_pos += non_null;
    chunk.nulls += static_cast<int64_t>((end - begin) - non_null);
    ++chunk.pages;
  }
  chunk.max_min = FastparquetMaxMin(w, type);
  return chunk;
}

void WriteFastparquetChunkMetadata(const FastparquetColumn& column, const FastparquetChunk& chunk,
                                   int64_t rows, int64_t codec, ThriftWriter& t) {
  t.BeginStruct();
  t.I64(2, chunk.info.start);
  t.StructField(3);
  t.I32(1, column.physical);
  t.ListField(2, kTI32, 1);
  t.I32Value(kPlain);
  t.ListField(3, kTBinary, 1);
  t.BinaryValue(column.name);
  t.I32(4, codec);
  t.I64(5, rows);
  t.I64(6, chunk.info.uncompressed);
  t.I64(7, chunk.info.compressed);
  t.ListField(8, kTStop, 0);  // key_value_metadata: fastparquet's empty list, one 0 byte
  t.I64(9, chunk.info.data_offset);
  t.StructField(12);
  if (chunk.max_min.has_value()) {
    t.Binary(1, chunk.max_min->first);
    t.Binary(2, chunk.max_min->second);
  }
  t.I64(3, chunk.nulls);
  t.EndStruct();
  t.ListField(13, kTStruct, 1);  // encoding_stats
  t.BeginStruct();
  t.I32(1, kDataPage);
  t.I32(2, kPlain);
  t.I32(3, chunk.pages);
  t.EndStruct();
  t.EndStruct();
  t.EndStruct();
}

struct FastparquetRowGroup {
  int64_t rows = 0;
  std::vector<FastparquetChunk> chunks;
};

std::string FastparquetFileMetadata(const std::vector<FastparquetColumn>& columns,
                                    const std::vector<FastparquetRowGroup>& groups, size_t rows,
                                    const std::string& pandas_metadata, int64_t codec) {
  ThriftWriter t;
  t.BeginStruct();
  t.I32(1, 1);
  t.ListField(2, kTStruct, columns.size() + 1);
  t.BeginStruct();
  t.Binary(4, "schema");
  t.I32(5, static_cast<int64_t>(columns.size()));
  t.EndStruct();
  for (const FastparquetColumn& c : columns) {
    t.BeginStruct();
    t.I32(1, c.physical);
    t.I32(2, c.type.type_length);
    t.I32(3, 1);  // OPTIONAL
    t.Binary(4, c.name);
    if (c.type.converted >= 0) t.I32(6, c.type.converted);
    t.EndStruct();
  }
  t.I64(3, static_cast<int64_t>(rows));
  if (groups.empty()) {
    t.ListField(4, kTStop, 0);
  } else {
    t.ListField(4, kTStruct, groups.size());
  }
  for (const FastparquetRowGroup& g : groups) {
    t.BeginStruct();
    t.ListField(1, kTStruct, columns.size());
    int64_t total = 0;
    for (size_t c = 0; c < columns.size(); ++c) {
      WriteFastparquetChunkMetadata(columns[c], g.chunks[c], g.rows, codec, t);
      total += g.chunks[c].info.uncompressed;
    }
    t.I64(2, total);
    t.I64(3, g.rows);
    t.EndStruct();
  }
  t.ListField(5, kTStruct, 1);
  t.BeginStruct();
  t.Binary(1, "pandas");
  t.Binary(2, pandas_metadata);
  t.EndStruct();
  t.Binary(6, kFastparquetCreatedBy);
  t.EndStruct();
  return t.bytes();
}

// The schema: each column planned on no rows, and its fastparquet type.
absl::StatusOr<std::vector<FastparquetColumn>> FastparquetSchema(
    const Table& table, const ParquetWriteOptions& options) {
  std::vector<FastparquetColumn> columns;
  for (const Column& column : table.columns()) {
    ASSIGN_OR_RETURN(WriteColumn w, PlanColumn(column, options, 0, 0));
    ASSIGN_OR_RETURN(FastparquetType type, FastparquetTypeOf(column, w.storage));
    columns.push_back({column.name, w.physical, std::move(type)});
  }
  return columns;
}

// The kFastparquet layout's bookkeeping, chunk by chunk: what both
// SerializeFastparquet (the whole file in memory) and FastparquetFileWriter
// (chunk by chunk to a file) do.
class FastparquetAssembly {
 public:
  // `table`'s columns give the schema (and, for object columns, the storage
  // their cells call for); `rows` the file's rows.
  static absl::StatusOr<FastparquetAssembly> Start(const Table& table, size_t rows,
                                                   const ParquetWriteOptions& options) {
    RETURN_IF_ERROR(CheckFastparquetOptions(options));
    FastparquetAssembly a;
    a.options_ = options;
    ASSIGN_OR_RETURN(a.columns_, FastparquetSchema(table, options));
    std::vector<PandasColumn> pandas;
    for (const FastparquetColumn& c : a.columns_) pandas.push_back({c.name, c.type.numpy_type});
    ASSIGN_OR_RETURN(a.pandas_metadata_, FastparquetPandasMetadata(pandas));
    a.rows_ = rows;
    a.starts_ = FastparquetRowGroupStarts(rows, options.fastparquet_row_group_rows);
    for (size_t g = 0; g < a.starts_.size(); ++g) {
      a.ends_.push_back(g + 1 < a.starts_.size() ? a.starts_[g + 1] : rows);
    }
    return a;
  }

  size_t num_groups() const { return starts_.size(); }
  size_t group_begin(size_t g) const { return starts_[g]; }
  size_t group_end(size_t g) const { return ends_[g]; }
  bool done() const { return groups_.size() == starts_.size() && next_column_ == 0; }
  // The group and column the next chunk belongs to.
  size_t next_group() const { return groups_.size(); }
  size_t next_column() const { return next_column_; }
  const FastparquetColumn& column(size_t c) const { return columns_[c]; }

  // Appends the next chunk, `w` (planned on its row group's rows), to
  // `file`, which holds the file's bytes from `file_offset` on.
  absl::Status AppendChunk(const WriteColumn& w, std::string& file, int64_t file_offset) {
    if (done()) return absl::FailedPreconditionError("every column chunk is written");
    const FastparquetColumn& column = columns_[next_column_];
    if (w.optional && !column.type.nullable) {
      return absl::InvalidArgumentError(
          absl::StrCat("column '", w.name, "': a ", column.type.numpy_type,
                       " column cannot hold missing values in the fastparquet layout"));
    }
    current_.rows = static_cast<int64_t>(ends_[groups_.size()] - starts_[groups_.size()]);
    current_.chunks.push_back(
        AppendFastparquetChunk(w, column.type, options_.compression, file, file_offset));
    if (++next_column_ == columns_.size()) {
      groups_.push_back(std::move(current_));
      current_ = FastparquetRowGroup();
      next_column_ = 0;
    }
    return absl::OkStatus();
  }

  // The footer: file metadata, its length and the closing magic.
  std::string Footer() const {
    std::string footer = FastparquetFileMetadata(columns_, groups_, rows_, pandas_metadata_,
                                                 CodecId(options_.compression));
    PutU32(&footer, static_cast<uint32_t>(footer.size()));
    footer += "PAR1";
    return footer;
  }

 private:
  ParquetWriteOptions options_;
  std::vector<FastparquetColumn> columns_;
  std::string pandas_metadata_;
  size_t rows_ = 0;
  std::vector<size_t> starts_, ends_;
  std::vector<FastparquetRowGroup> groups_;
  FastparquetRowGroup current_;
  size_t next_column_ = 0;
};

}  // namespace


// Each column chunk is planned on its row group's rows only, so that one
// column's values of one row group are held at a time.
absl::StatusOr<std::string> SerializeFastparquet(const Table& table,
                                                 const ParquetWriteOptions& options) {
  ASSIGN_OR_RETURN(FastparquetAssembly assembly,
                   FastparquetAssembly::Start(table, table.num_rows(), options));
  std::string file = "PAR1";
  for (size_t g = 0; g < assembly.num_groups(); ++g) {
    for (const Column& column : table.columns()) {
      ASSIGN_OR_RETURN(WriteColumn w, PlanColumn(column, options, assembly.group_begin(g),
                                                 assembly.group_end(g)));
      RETURN_IF_ERROR(assembly.AppendChunk(w, file, 0));
    }
  }
  file += assembly.Footer();
  return file;
}

}  // namespace parquet_internal

using namespace parquet_internal;  // NOLINT: this file's own format pieces

struct FastparquetFileWriter::State {
  std::filesystem::path path;
  std::ofstream out;
  int64_t written = 0;
  ParquetWriteOptions options;
  std::vector<Dtype> dtypes;
  FastparquetAssembly assembly;

  absl::Status Write(const std::string& bytes) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return absl::DataLossError(absl::StrCat("error writing ", path.string()));
    written += static_cast<int64_t>(bytes.size());
    return absl::OkStatus();
  }
};

FastparquetFileWriter::FastparquetFileWriter(std::unique_ptr<State> state)
    : state_(std::move(state)) {}
FastparquetFileWriter::FastparquetFileWriter(FastparquetFileWriter&&) noexcept = default;
FastparquetFileWriter& FastparquetFileWriter::operator=(FastparquetFileWriter&&) noexcept =
    default;
FastparquetFileWriter::~FastparquetFileWriter() = default;

absl::StatusOr<FastparquetFileWriter> FastparquetFileWriter::Open(
    const std::filesystem::path& path, const std::vector<Column>& schema, size_t rows,
    const ParquetWriteOptions& options) {
  if (options.layout != ParquetLayout::kFastparquet) {
    return absl::InvalidArgumentError("FastparquetFileWriter writes the kFastparquet layout");
  }
  std::vector<Column> columns;
  for (const Column& c : schema) columns.push_back(Column{c.name, c.dtype, {}});
  const Table empty(std::move(columns));
  RETURN_IF_ERROR(CheckWritable(empty, options));
  ASSIGN_OR_RETURN(FastparquetAssembly assembly, FastparquetAssembly::Start(empty, rows, options));
  auto state = std::unique_ptr<State>(new State{path, std::ofstream(), 0, options, {},
                                                std::move(assembly)});
  for (const Column& c : schema) state->dtypes.push_back(c.dtype);
  state->out.open(path, std::ios::binary | std::ios::trunc);
  if (!state->out)
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path.string()));
  RETURN_IF_ERROR(state->Write("PAR1"));
  return FastparquetFileWriter(std::move(state));
}

std::vector<std::pair<size_t, size_t>> FastparquetFileWriter::RowGroups() const {
  std::vector<std::pair<size_t, size_t>> groups;
  for (size_t g = 0; g < state_->assembly.num_groups(); ++g) {
    groups.emplace_back(state_->assembly.group_begin(g), state_->assembly.group_end(g));
  }
  return groups;
}

absl::Status FastparquetFileWriter::WriteChunk(const TypedColumn& values) {
  FastparquetAssembly& assembly = state_->assembly;
  if (assembly.done()) return absl::FailedPreconditionError("every column chunk is written");
  const size_t g = assembly.next_group(), c = assembly.next_column();
  const std::string& name = assembly.column(c).name;
  if (values.name() != name) {
    return absl::InvalidArgumentError(absl::StrCat("chunk of column '", values.name(),
                                                   "' where column '", name, "' comes next"));
  }
  if (values.dtype() != state_->dtypes[c]) {
    return absl::InvalidArgumentError(
        absl::StrCat("column '", name, "': chunk of dtype ", std::string(DtypeName(values.dtype())),
                     " in a column of dtype ", std::string(DtypeName(state_->dtypes[c]))));
  }
  const size_t rows = assembly.group_end(g) - assembly.group_begin(g);
  if (values.size() != rows) {
    return absl::InvalidArgumentError(absl::StrCat("column '", name, "': chunk of ",
                                                   values.size(), " rows in a row group of ",
                                                   rows));
  }
  std::string bytes;
  {
    ASSIGN_OR_RETURN(const WriteColumn w, PlanColumn(values, state_->options));
    RETURN_IF_ERROR(assembly.AppendChunk(w, bytes, state_->written));
  }
  return state_->Write(bytes);
}

absl::Status FastparquetFileWriter::Close() {
  if (!state_->assembly.done()) {
    return absl::FailedPreconditionError(
        absl::StrCat(state_->path.string(), ": closed before every column chunk was written"));
  }
  RETURN_IF_ERROR(state_->Write(state_->assembly.Footer()));
  state_->out.close();
  if (!state_->out)
    return absl::DataLossError(absl::StrCat("error writing ", state_->path.string()));
  return absl::OkStatus();
}

}  // namespace mlebench
