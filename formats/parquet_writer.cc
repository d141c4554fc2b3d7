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
#include "formats/internal/fastparquet_writer.h"
#include "formats/internal/parquet_format.h"
#include "formats/internal/parquet_write_plan.h"
#include "formats/internal/thrift_compact.h"

namespace mlebench {
namespace {

using namespace parquet_internal;  // NOLINT: this file's own format pieces

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

}  // namespace mlebench
