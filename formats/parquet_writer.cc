// The Parquet writer: plain or dictionary pages, one or more row groups.
#include "formats/parquet.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/internal/fastparquet_layout.h"
#include "formats/internal/parquet_format.h"
#include "formats/internal/thrift_compact.h"

namespace mlebench {
namespace {

using namespace parquet_internal;  // NOLINT: this file's own format pieces

// ---------------------------------------------------------------------------
// Writer helpers.

void PutU32(std::string* out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out->append(b, 4);
}

// Definition levels (bit width 1) as RLE runs (v1 pages).
std::string EncodeLevelRuns(const std::vector<uint8_t>& levels, size_t begin, size_t end) {
  std::string out;
  size_t i = begin;
  while (i < end) {
    size_t j = i;
    while (j < end && levels[j] == levels[i]) ++j;
    uint64_t header = static_cast<uint64_t>(j - i) << 1;
    while (header >= 0x80) {
      out.push_back(static_cast<char>((header & 0x7f) | 0x80));
      header >>= 7;
    }
    out.push_back(static_cast<char>(header));
    out.push_back(static_cast<char>(levels[i]));
    i = j;
  }
  return out;
}

// Definition levels (bit width 1) in the RLE / bit-packed hybrid, for v2
// pages: RLE runs of 8 or more equal levels, bit-packed runs (whole groups of
// 8 but at the end) between them: about a byte per 8 rows plus 2 per long
// run. Not RLE runs only, although the spec allows any runs: fastparquet
// 2024.5.0's read_data_page_v2 bounds the bytes of levels it decodes by the
// page's value count instead of their byte length, and so misreads levels
// that take more bytes than the page has values (short RLE runs, 2 bytes
// each).
std::string EncodeLevelsHybrid(const std::vector<uint8_t>& levels, size_t begin, size_t end) {
  auto put_varint = [](uint64_t v, std::string& out) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  };
  // Whether levels [i, i + 8) exist and are equal.
  auto long_run_at = [&](size_t i) {
    return i + 8 <= end && std::all_of(&levels[i], &levels[i] + 8,
                                       [&](uint8_t l) { return l == levels[i]; });
  };
  std::string out;
  size_t i = begin;
  while (i < end) {
    if (long_run_at(i)) {
      size_t j = i + 8;
      while (j < end && levels[j] == levels[i]) ++j;
      put_varint(static_cast<uint64_t>(j - i) << 1, out);
      out.push_back(static_cast<char>(levels[i]));
      i = j;
      continue;
    }
    size_t j = i;
    do {
      j = std::min(end, j + 8);
    } while (j < end && !long_run_at(j));
    const size_t groups = (j - i + 7) / 8;
    put_varint((static_cast<uint64_t>(groups) << 1) | 1, out);
    std::string packed(groups, '\0');
    for (size_t k = 0; k < j - i; ++k) {
      if (levels[i + k]) packed[k / 8] = static_cast<char>(packed[k / 8] | (1 << (k % 8)));
    }
    out += packed;
    i = j;
  }
  return out;
}

// Indices as one bit-packed run, padded to a multiple of eight values.
std::string EncodeBitPacked(const std::vector<uint32_t>& values, size_t begin, size_t end,
                            int bit_width) {
  std::string out;
  const size_t groups = (end - begin + 7) / 8;
  uint64_t header = (static_cast<uint64_t>(groups) << 1) | 1;
  while (header >= 0x80) {
    out.push_back(static_cast<char>((header & 0x7f) | 0x80));
    header >>= 7;
  }
  out.push_back(static_cast<char>(header));
  std::string packed(groups * bit_width, '\0');
  size_t bit = 0;
  for (size_t i = begin; i < end; ++i) {
    for (int b = 0; b < bit_width; ++b, ++bit) {
      if ((values[i] >> b) & 1)
        packed[bit / 8] = static_cast<char>(packed[bit / 8] | (1 << (bit % 8)));
    }
  }
  return out + packed;
}

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

std::string StorageName(ParquetStorage s) {
  switch (s) {
    case ParquetStorage::kInt16:
      return "int16";
    case ParquetStorage::kInt32:
      return "int32";
    case ParquetStorage::kInt64:
      return "int64";
    case ParquetStorage::kFloat:
      return "float";
    case ParquetStorage::kDouble:
      return "double";
    case ParquetStorage::kBoolean:
      return "boolean";
    case ParquetStorage::kString:
      return "string";
  }
  return "?";
}

// Plans rows [begin, min(end, size)) of the column called `name` of `dtype`
// and `size` rows, whose row r is cell_at(r) (a Cell or a reference to one).
template <typename CellAt>
absl::StatusOr<WriteColumn> PlanCells(const std::string& name, Dtype dtype, size_t size,
                                      CellAt cell_at, const ParquetWriteOptions& options,
                                      size_t begin, size_t end) {
  WriteColumn w;
  w.name = name;
  auto it = options.storage.find(name);
  if (it != options.storage.end()) {
    w.storage = it->second;
  } else {
    switch (dtype) {
      case Dtype::kInt64:
        w.storage = ParquetStorage::kInt64;
        break;
      case Dtype::kFloat64:
        w.storage = ParquetStorage::kDouble;
        break;
      case Dtype::kBool:
        w.storage = ParquetStorage::kBoolean;
        break;
      case Dtype::kObject: {
        bool all_bool = true, any_present = false;
        for (size_t row = 0; row < size; ++row) {
          const Cell& c = cell_at(row);
          if (IsMissing(c)) continue;
          any_present = true;
          if (!std::holds_alternative<bool>(c)) all_bool = false;
        }
        w.storage = any_present && all_bool ? ParquetStorage::kBoolean : ParquetStorage::kString;
      }
    }
  }
  switch (w.storage) {
    case ParquetStorage::kInt16:
    case ParquetStorage::kInt32:
      w.physical = kInt32;
      break;
    case ParquetStorage::kInt64:
      w.physical = kInt64;
      break;
    case ParquetStorage::kFloat:
      w.physical = kFloat;
      break;
    case ParquetStorage::kDouble:
      w.physical = kDouble;
      break;
    case ParquetStorage::kBoolean:
      w.physical = kBoolean;
      break;
    case ParquetStorage::kString:
      w.physical = kByteArray;
      break;
  }
  auto misfit = [&](size_t row) {
    return absl::InvalidArgumentError(absl::StrCat("column '", name, "' row ", row,
                                                   ": value does not fit Parquet storage ",
                                                   StorageName(w.storage)));
  };
  w.present.reserve(std::min(end, size) - std::min(begin, size));
  for (size_t row = begin; row < std::min(end, size); ++row) {
    const Cell& c = cell_at(row);
    if (IsMissing(c)) {
      if (w.physical == kInt32 || w.physical == kInt64) return misfit(row);
      w.present.push_back(0);
      continue;
    }
    std::string bytes;
    switch (w.storage) {
      case ParquetStorage::kInt16:
      case ParquetStorage::kInt32:
      case ParquetStorage::kInt64: {
        if (!std::holds_alternative<int64_t>(c)) return misfit(row);
        int64_t v = std::get<int64_t>(c);
        int64_t lo = w.storage == ParquetStorage::kInt16   ? -32768
                     : w.storage == ParquetStorage::kInt32 ? std::numeric_limits<int32_t>::min()
                                                           : std::numeric_limits<int64_t>::min();
        int64_t hi = w.storage == ParquetStorage::kInt16   ? 32767
                     : w.storage == ParquetStorage::kInt32 ? std::numeric_limits<int32_t>::max()
                                                           : std::numeric_limits<int64_t>::max();
        if (v < lo || v > hi) return misfit(row);
        if (w.physical == kInt32) {
          int32_t v32 = static_cast<int32_t>(v);
          bytes.assign(reinterpret_cast<const char*>(&v32), 4);
        } else {
          bytes.assign(reinterpret_cast<const char*>(&v), 8);
        }
        break;
      }
      case ParquetStorage::kFloat:
      case ParquetStorage::kDouble: {
        double d;
        if (std::holds_alternative<double>(c)) {
          d = std::get<double>(c);
        } else if (std::holds_alternative<int64_t>(c)) {
          d = static_cast<double>(std::get<int64_t>(c));
        } else {
          return misfit(row);
        }
        if (w.storage == ParquetStorage::kFloat) {
          float f = static_cast<float>(d);
          bytes.assign(reinterpret_cast<const char*>(&f), 4);
        } else {
          bytes.assign(reinterpret_cast<const char*>(&d), 8);
        }
        break;
      }
      case ParquetStorage::kBoolean:
        if (!std::holds_alternative<bool>(c)) return misfit(row);
        bytes.assign(1, std::get<bool>(c) ? '\1' : '\0');
        break;
      case ParquetStorage::kString: {
        if (!std::holds_alternative<std::string>(c)) return misfit(row);
        const std::string& s = std::get<std::string>(c);
        if (s.size() > std::numeric_limits<uint32_t>::max()) return misfit(row);
        PutU32(&bytes, static_cast<uint32_t>(s.size()));
        bytes += s;
        break;
      }
    }
    w.present.push_back(1);
    w.data += bytes;
    w.offsets.push_back(w.data.size());
  }
  w.optional = std::find(w.present.begin(), w.present.end(), 0) != w.present.end();
  return w;
}

// Plans rows [begin, min(end, rows)) of `column`.
absl::StatusOr<WriteColumn> PlanColumn(const Column& column, const ParquetWriteOptions& options,
                                       size_t begin = 0, size_t end = SIZE_MAX) {
  return PlanCells(
      column.name, column.dtype, column.cells.size(),
      [&column](size_t row) -> const Cell& { return column.cells[row]; }, options, begin, end);
}

absl::StatusOr<WriteColumn> PlanColumn(const TypedColumn& column,
                                       const ParquetWriteOptions& options) {
  return PlanCells(
      column.name(), column.dtype(), column.size(),
      [&column](size_t row) { return column.CellAt(row); }, options, 0, column.size());
}

// PLAIN bytes of values [begin, end), `value(i)` giving one value's bytes.
template <typename ValueFn>
std::string PlainBytes(int physical, ValueFn value, size_t begin, size_t end) {
  std::string out;
  if (physical == kBoolean) {
    out.assign((end - begin + 7) / 8, '\0');
    for (size_t i = begin; i < end; ++i) {
      if (value(i)[0])
        out[(i - begin) / 8] = static_cast<char>(out[(i - begin) / 8] | (1 << ((i - begin) % 8)));
    }
    return out;
  }
  for (size_t i = begin; i < end; ++i) out += value(i);
  return out;
}

std::string PageHeaderBytes(int64_t type, size_t uncompressed, size_t compressed,
                            const std::function<void(ThriftWriter&)>& body) {
  ThriftWriter t;
  t.BeginStruct();
  t.I32(1, type);
  t.I32(2, static_cast<int64_t>(uncompressed));
  t.I32(3, static_cast<int64_t>(compressed));
  body(t);
  t.EndStruct();
  return t.bytes();
}

absl::Status CheckWritable(const Table& table, const ParquetWriteOptions& options) {
  if (table.num_columns() == 0)
    return absl::InvalidArgumentError("cannot write a table without columns");
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return absl::InvalidArgumentError("data_page_version must be 1 or 2");
  }
  if (options.rows_per_page < 0) return absl::InvalidArgumentError("rows_per_page must be >= 0");
  std::set<std::string> names;
  for (const Column& c : table.columns()) {
    if (c.name.empty()) return absl::InvalidArgumentError("empty column name");
    if (!names.insert(c.name).second) {
      return absl::InvalidArgumentError(absl::StrCat("duplicate column name '", c.name, "'"));
    }
    if (c.cells.size() != table.num_rows()) {
      return absl::InvalidArgumentError(
          absl::StrCat("column '", c.name, "' has a different length"));
    }
  }
  return absl::OkStatus();
}

// Where one column chunk lies in the file, for its ColumnMetaData.
struct ChunkInfo {
  int64_t start = 0, data_offset = 0, dict_offset = -1, compressed = 0, uncompressed = 0;
};

// Appends a page (its header, then its body) to `file` and counts it in `info`.
void AppendPage(const std::string& header, const std::string& body, size_t uncompressed_body,
                std::string& file, ChunkInfo& info) {
  file += header;
  file += body;
  info.compressed += static_cast<int64_t>(header.size() + body.size());
  info.uncompressed += static_cast<int64_t>(header.size() + uncompressed_body);
}

// A column's dictionary: the distinct values in order of first appearance,
// and each value's index among them.
struct Dictionary {
  std::vector<std::string_view> distinct;
  std::vector<uint32_t> indices;
  int bit_width = 1;
};

Dictionary BuildDictionary(const WriteColumn& w) {
  Dictionary d;
  std::map<std::string_view, uint32_t> seen;
  for (size_t i = 0; i < w.num_values(); ++i) {
    auto [it, inserted] = seen.emplace(w.Value(i), static_cast<uint32_t>(d.distinct.size()));
    if (inserted) d.distinct.push_back(w.Value(i));
    d.indices.push_back(it->second);
  }
  while ((size_t{1} << d.bit_width) < d.distinct.size()) ++d.bit_width;
  return d;
}

absl::Status AppendDictionaryPage(const WriteColumn& w, const Dictionary& dict,
                                  const ParquetWriteOptions& options, std::string& file,
                                  ChunkInfo& info) {
  std::string dict_body = PlainBytes(
      w.physical, [&](size_t i) { return dict.distinct[i]; }, 0, dict.distinct.size());
  ASSIGN_OR_RETURN(std::string compressed, Compress(options.compression, dict_body));
  std::string header = PageHeaderBytes(kDictionaryPage, dict_body.size(), compressed.size(),
                                       [&](ThriftWriter& t) {
                                         t.StructField(7);
                                         t.I32(1, static_cast<int64_t>(dict.distinct.size()));
                                         t.I32(2, kPlain);
                                         t.EndStruct();
                                       });
  info.dict_offset = static_cast<int64_t>(file.size());
  AppendPage(header, compressed, dict_body.size(), file, info);
  return absl::OkStatus();
}

// One data page of rows [begin, end), whose non-null values are
// [value_pos, value_pos + non_null); `dict` when dictionary-encoded.
absl::Status AppendDataPage(const WriteColumn& w, const Dictionary* dict, size_t begin,
                            size_t end, size_t value_pos, size_t non_null,
                            const ParquetWriteOptions& options, std::string& file,
                            ChunkInfo& info) {
  std::string levels;
  if (w.optional) {
    levels = options.data_page_version == 1 ? EncodeLevelRuns(w.present, begin, end)
                                            : EncodeLevelsHybrid(w.present, begin, end);
  }
  std::string values;
  int64_t encoding = kPlain;
  if (dict != nullptr) {
    encoding = options.data_page_version == 1 ? kPlainDictionary : kRleDictionary;
    values.push_back(static_cast<char>(dict->bit_width));
    values += EncodeBitPacked(dict->indices, value_pos, value_pos + non_null, dict->bit_width);
  } else {
    values = PlainBytes(
        w.physical, [&](size_t i) { return w.Value(i); }, value_pos, value_pos + non_null);
  }
  if (options.data_page_version == 1) {
    std::string raw;
    if (w.optional) {
      PutU32(&raw, static_cast<uint32_t>(levels.size()));
      raw += levels;
    }
    raw += values;
    ASSIGN_OR_RETURN(std::string body, Compress(options.compression, raw));
    const std::string header =
        PageHeaderBytes(kDataPage, raw.size(), body.size(), [&](ThriftWriter& t) {
          t.StructField(5);
          t.I32(1, static_cast<int64_t>(end - begin));
          t.I32(2, encoding);
          t.I32(3, kRle);
          t.I32(4, kRle);
          t.EndStruct();
        });
    AppendPage(header, body, raw.size(), file, info);
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::string compressed, Compress(options.compression, values));
  const std::string body = levels + compressed;
  const size_t uncompressed_size = levels.size() + values.size();
  const std::string header =
      PageHeaderBytes(kDataPageV2, uncompressed_size, body.size(), [&](ThriftWriter& t) {
        t.StructField(8);
        t.I32(1, static_cast<int64_t>(end - begin));
        t.I32(2, static_cast<int64_t>((end - begin) - non_null));
        t.I32(3, static_cast<int64_t>(end - begin));
        t.I32(4, encoding);
        t.I32(5, static_cast<int64_t>(levels.size()));
        t.I32(6, 0);
        t.Bool(7, options.compression != ParquetCompression::kUncompressed);
        t.EndStruct();
      });
  AppendPage(header, body, uncompressed_size, file, info);
  return absl::OkStatus();
}

// Appends column `w`'s chunk: its dictionary page, if any, then one data page
// per `page_rows` rows (one page for an empty table).
absl::StatusOr<ChunkInfo> AppendColumnChunk(const WriteColumn& w, size_t rows, size_t page_rows,
                                            const ParquetWriteOptions& options,
                                            std::string& file) {
  ChunkInfo info;
  info.start = static_cast<int64_t>(file.size());
  // Booleans are never dictionary-encoded (no writer does; some readers take
  // a boolean page's dictionary encoding for RLE).
  std::optional<Dictionary> dict;
  if (options.dictionary && w.physical != kBoolean) {
    dict = BuildDictionary(w);
    RETURN_IF_ERROR(AppendDictionaryPage(w, *dict, options, file, info));
  }
  info.data_offset = static_cast<int64_t>(file.size());
  size_t value_pos = 0;
  for (size_t begin = 0; begin < rows || (begin == 0 && rows == 0); begin += page_rows) {
    const size_t end = std::min(rows, begin + page_rows);
    size_t non_null = 0;
    for (size_t i = begin; i < end; ++i) non_null += w.present[i];
    RETURN_IF_ERROR(AppendDataPage(w, dict.has_value() ? &*dict : nullptr, begin, end, value_pos,
                                   non_null, options, file, info));
    value_pos += non_null;
    if (rows == 0) break;
  }
  return info;
}

// The file's FileMetaData: the schema, one row group of the chunks.
std::string FileMetadata(const std::vector<WriteColumn>& plans,
                         const std::vector<ChunkInfo>& infos, size_t rows,
                         const ParquetWriteOptions& options) {
  const int64_t codec = CodecId(options.compression);
  ThriftWriter t;
  t.BeginStruct();
  t.I32(1, options.data_page_version);
  t.ListField(2, kTStruct, plans.size() + 1);
  t.BeginStruct();
  t.Binary(4, "schema");
  t.I32(5, static_cast<int64_t>(plans.size()));
  t.EndStruct();
  for (const WriteColumn& w : plans) {
    t.BeginStruct();
    t.I32(1, w.physical);
    t.I32(3, w.optional ? 1 : 0);
    t.Binary(4, w.name);
    if (w.storage == ParquetStorage::kString) t.I32(6, kUtf8);
    if (w.storage == ParquetStorage::kInt16) t.I32(6, kInt16);
    t.EndStruct();
  }
  t.I64(3, static_cast<int64_t>(rows));
  t.ListField(4, kTStruct, 1);
  t.BeginStruct();
  t.ListField(1, kTStruct, plans.size());
  int64_t total_uncompressed = 0, total_compressed = 0;
  for (size_t c = 0; c < plans.size(); ++c) {
    const WriteColumn& w = plans[c];
    const ChunkInfo& info = infos[c];
    total_uncompressed += info.uncompressed;
    total_compressed += info.compressed;
    t.BeginStruct();
    t.I64(2, info.start);
    t.StructField(3);
    t.I32(1, w.physical);
    const bool dict = info.dict_offset >= 0;
    t.ListField(2, kTI32, dict ? 3 : 2);
    t.I32Value(kPlain);
    t.I32Value(kRle);
    if (dict) t.I32Value(options.data_page_version == 1 ? kPlainDictionary : kRleDictionary);
    t.ListField(3, kTBinary, 1);
    t.BinaryValue(w.name);
    t.I32(4, codec);
    t.I64(5, static_cast<int64_t>(rows));
    t.I64(6, info.uncompressed);
    t.I64(7, info.compressed);
    t.I64(9, info.data_offset);
    if (info.dict_offset >= 0) t.I64(11, info.dict_offset);
    t.EndStruct();
    t.EndStruct();
  }
  t.I64(2, total_uncompressed);
  t.I64(3, static_cast<int64_t>(rows));
  t.I64(5, 4);
  t.I64(6, total_compressed);
  t.EndStruct();
  t.Binary(6, "mlebench parquet writer 1");
  t.EndStruct();
  return t.bytes();
}

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

}  // namespace

absl::StatusOr<std::string> SerializeParquet(const Table& table,
                                             const ParquetWriteOptions& options) {
  RETURN_IF_ERROR(CheckWritable(table, options));
  if (options.layout == ParquetLayout::kFastparquet) return SerializeFastparquet(table, options);
  const size_t rows = table.num_rows();
  const size_t page_rows = options.rows_per_page > 0 ? static_cast<size_t>(options.rows_per_page)
                                                     : std::max<size_t>(rows, 1);
  std::string file = "PAR1";
  std::vector<WriteColumn> plans;
  std::vector<ChunkInfo> infos;
  for (const Column& column : table.columns()) {
    ASSIGN_OR_RETURN(WriteColumn w, PlanColumn(column, options));
    ASSIGN_OR_RETURN(ChunkInfo info, AppendColumnChunk(w, rows, page_rows, options, file));
    // Only the schema fields are needed from here on.
    w.data = std::string();
    w.offsets = std::vector<size_t>();
    w.present = std::vector<uint8_t>();
    plans.push_back(std::move(w));
    infos.push_back(info);
  }
  const std::string metadata = FileMetadata(plans, infos, rows, options);
  file += metadata;
  PutU32(&file, static_cast<uint32_t>(metadata.size()));
  file += "PAR1";
  return file;
}

absl::Status WriteParquetFile(const Table& table, const std::filesystem::path& path,
                              const ParquetWriteOptions& options) {
  ASSIGN_OR_RETURN(std::string bytes, SerializeParquet(table, options));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot write ", path.string()));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::DataLossError(absl::StrCat("error writing ", path.string()));
  return absl::OkStatus();
}

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
