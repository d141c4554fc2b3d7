// The Parquet writer: plain or dictionary pages, one or more row groups.
#include "formats/parquet.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
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

// Definition levels (bit width 1) as RLE runs.
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

absl::StatusOr<WriteColumn> PlanColumn(const Column& column, const ParquetWriteOptions& options) {
  WriteColumn w;
  w.name = column.name;
  auto it = options.storage.find(column.name);
  if (it != options.storage.end()) {
    w.storage = it->second;
  } else {
    switch (column.dtype) {
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
        for (const Cell& c : column.cells) {
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
    return absl::InvalidArgumentError(absl::StrCat("column '", column.name, "' row ", row,
                                                   ": value does not fit Parquet storage ",
                                                   StorageName(w.storage)));
  };
  for (size_t row = 0; row < column.cells.size(); ++row) {
    const Cell& c = column.cells[row];
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
  std::string levels = w.optional ? EncodeLevelRuns(w.present, begin, end) : std::string();
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

}  // namespace

absl::StatusOr<std::string> SerializeParquet(const Table& table,
                                             const ParquetWriteOptions& options) {
  RETURN_IF_ERROR(CheckWritable(table, options));
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

}  // namespace mlebench
