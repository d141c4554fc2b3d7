// The Parquet reader: footer, schema, column chunks and their pages.
#include "formats/parquet.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
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
// Value decoding.

uint32_t LoadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// The RLE / bit-packed hybrid (parquet's Encodings.md), `count` values of
// `bit_width` bits from `data`. Bit-packed groups may run past `count`
// (padding) and the data may end inside the last group's padding.
absl::Status DecodeRleHybrid(std::string_view data, int bit_width, int64_t count,
                             std::vector<uint32_t>* out) {
  if (bit_width < 0 || bit_width > 32) return Corrupt("RLE bit width over 32");
  out->clear();
  out->reserve(static_cast<size_t>(std::min<int64_t>(count, data.size() * 8 + 64)));
  size_t pos = 0;
  const int value_bytes = (bit_width + 7) / 8;
  while (static_cast<int64_t>(out->size()) < count) {
    uint64_t header = 0;
    int shift = 0;
    while (true) {
      if (pos >= data.size() || shift > 63) return Corrupt("truncated RLE data");
      uint8_t b = static_cast<uint8_t>(data[pos++]);
      header |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    int64_t remaining = count - static_cast<int64_t>(out->size());
    if ((header & 1) == 0) {
      uint64_t run = header >> 1;
      if (data.size() - pos < static_cast<size_t>(value_bytes))
        return Corrupt("truncated RLE data");
      uint32_t value = 0;
      for (int i = 0; i < value_bytes; ++i) {
        value |= static_cast<uint32_t>(static_cast<uint8_t>(data[pos + i])) << (8 * i);
      }
      pos += value_bytes;
      if (bit_width < 32 && (value >> bit_width) != 0)
        return Corrupt("RLE value wider than its bit width");
      int64_t n = static_cast<int64_t>(std::min<uint64_t>(run, static_cast<uint64_t>(remaining)));
      out->insert(out->end(), static_cast<size_t>(n), value);
    } else {
      uint64_t groups = header >> 1;
      uint64_t values = std::min<uint64_t>(groups * 8, static_cast<uint64_t>(remaining));
      if (groups > (uint64_t{1} << 40)) return Corrupt("absurd bit-packed run");
      uint64_t bit = 0;
      const uint64_t available_bits = (data.size() - pos) * 8;
      for (uint64_t i = 0; i < values; ++i) {
        if (bit + bit_width > available_bits) return Corrupt("truncated bit-packed data");
        uint64_t v = 0;
        for (int b = 0; b < bit_width; ++b, ++bit) {
          uint64_t byte = static_cast<uint8_t>(data[pos + bit / 8]);
          v |= ((byte >> (bit % 8)) & 1) << b;
        }
        out->push_back(static_cast<uint32_t>(v));
      }
      pos += static_cast<size_t>(std::min<uint64_t>(groups * bit_width, data.size() - pos));
    }
  }
  return absl::OkStatus();
}

// Decoded non-null values of one physical type: INT32/INT64 in `ints`,
// FLOAT/DOUBLE in `reals`, BOOLEAN in `bools`, BYTE_ARRAY in `strings`.
struct Values {
  std::vector<int64_t> ints;
  std::vector<double> reals;
  std::vector<uint8_t> bools;
  std::vector<std::string> strings;

  size_t size(int type) const {
    switch (type) {
      case kInt32:
      case kInt64:
        return ints.size();
      case kFloat:
      case kDouble:
        return reals.size();
      case kBoolean:
        return bools.size();
      default:
        return strings.size();
    }
  }
};

struct ColumnSchema {
  std::string name;
  int type = 0;
  bool optional = false;
  bool unsigned_int = false;
};

absl::Status DecodePlain(const ColumnSchema& col, std::string_view data, int64_t count,
                         Values* out) {
  const char* p = data.data();
  const size_t n = data.size();
  auto short_data = [&] {
    return Corrupt(absl::StrCat("column '", col.name, "': PLAIN data shorter than its values"));
  };
  switch (col.type) {
    case kInt32:
      if (static_cast<uint64_t>(count) > n / 4) return short_data();
      for (int64_t i = 0; i < count; ++i) {
        uint32_t u = LoadU32(p + 4 * i);
        out->ints.push_back(col.unsigned_int ? static_cast<int64_t>(u)
                                             : static_cast<int64_t>(static_cast<int32_t>(u)));
      }
      return absl::OkStatus();
    case kInt64:
      if (static_cast<uint64_t>(count) > n / 8) return short_data();
      for (int64_t i = 0; i < count; ++i) {
        int64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        if (col.unsigned_int && v < 0) {
          return absl::UnimplementedError(
              absl::StrCat("column '", col.name, "': UINT64 values above 2^63 are not supported"));
        }
        out->ints.push_back(v);
      }
      return absl::OkStatus();
    case kFloat:
      if (static_cast<uint64_t>(count) > n / 4) return short_data();
      for (int64_t i = 0; i < count; ++i) {
        float f;
        std::memcpy(&f, p + 4 * i, 4);
        out->reals.push_back(f);
      }
      return absl::OkStatus();
    case kDouble:
      if (static_cast<uint64_t>(count) > n / 8) return short_data();
      for (int64_t i = 0; i < count; ++i) {
        double d;
        std::memcpy(&d, p + 8 * i, 8);
        out->reals.push_back(d);
      }
      return absl::OkStatus();
    case kBoolean:
      if (static_cast<uint64_t>(count) > n * 8) return short_data();
      for (int64_t i = 0; i < count; ++i) {
        out->bools.push_back((static_cast<uint8_t>(p[i / 8]) >> (i % 8)) & 1);
      }
      return absl::OkStatus();
    case kByteArray: {
      size_t pos = 0;
      for (int64_t i = 0; i < count; ++i) {
        if (n - pos < 4) return short_data();
        uint32_t len = LoadU32(p + pos);
        pos += 4;
        if (len > n - pos) return short_data();
        out->strings.emplace_back(p + pos, len);
        pos += len;
      }
      return absl::OkStatus();
    }
  }
  return absl::InternalError("unexpected physical type");
}

void AppendFromDictionary(int type, const Values& dict, uint32_t index, Values* out) {
  switch (type) {
    case kInt32:
    case kInt64:
      out->ints.push_back(dict.ints[index]);
      break;
    case kFloat:
    case kDouble:
      out->reals.push_back(dict.reals[index]);
      break;
    case kBoolean:
      out->bools.push_back(dict.bools[index]);
      break;
    default:
      out->strings.push_back(dict.strings[index]);
  }
}

// Decodes `count` non-null values in `encoding` from `data`, appending to `out`.
absl::Status DecodeValues(const ColumnSchema& col, int64_t encoding, std::string_view data,
                          int64_t count, const Values* dictionary, Values* out) {
  switch (encoding) {
    case kPlain:
      return DecodePlain(col, data, count, out);
    case kPlainDictionary:
    case kRleDictionary: {
      if (dictionary == nullptr) {
        return Corrupt(absl::StrCat("column '", col.name,
                                    "': dictionary-encoded page without a dictionary page"));
      }
      if (count == 0) return absl::OkStatus();
      if (data.empty()) return Corrupt("missing dictionary index bit width");
      int bit_width = static_cast<uint8_t>(data[0]);
      std::vector<uint32_t> indices;
      absl::Status s = DecodeRleHybrid(data.substr(1), bit_width, count, &indices);
      if (!s.ok()) return s;
      const size_t dict_size = dictionary->size(col.type);
      for (uint32_t index : indices) {
        if (index >= dict_size) {
          return Corrupt(absl::StrCat("column '", col.name, "': dictionary index out of range"));
        }
        AppendFromDictionary(col.type, *dictionary, index, out);
      }
      return absl::OkStatus();
    }
    case kRle: {
      if (col.type != kBoolean) break;
      if (data.size() < 4) return Corrupt("truncated RLE boolean data");
      uint32_t len = LoadU32(data.data());
      if (len > data.size() - 4) return Corrupt("truncated RLE boolean data");
      std::vector<uint32_t> bits;
      absl::Status s = DecodeRleHybrid(data.substr(4, len), 1, count, &bits);
      if (!s.ok()) return s;
      for (uint32_t b : bits) out->bools.push_back(static_cast<uint8_t>(b));
      return absl::OkStatus();
    }
    default:
      break;
  }
  return absl::UnimplementedError(absl::StrCat("column '", col.name, "': Parquet encoding ",
                                               EncodingName(encoding), " for ",
                                               PhysicalTypeName(col.type), " is not supported"));
}

// One column's decoded rows: `values` holds the non-null values in order,
// `present` one flag per row (all ones for REQUIRED columns).
struct ColumnData {
  Values values;
  std::vector<uint8_t> present;
};

// Appends one data page's rows (levels already split from values).
absl::Status AppendPage(const ColumnSchema& col, int64_t num_values, std::string_view def_levels,
                        int64_t encoding, std::string_view values_data, const Values* dictionary,
                        ColumnData* out) {
  int64_t non_null = num_values;
  if (col.optional) {
    std::vector<uint32_t> levels;
    absl::Status s = DecodeRleHybrid(def_levels, 1, num_values, &levels);
    if (!s.ok()) return s;
    non_null = 0;
    for (uint32_t l : levels) {
      out->present.push_back(static_cast<uint8_t>(l));
      non_null += l;
    }
  } else {
    out->present.insert(out->present.end(), static_cast<size_t>(num_values), 1);
  }
  size_t before = out->values.size(col.type);
  absl::Status s = DecodeValues(col, encoding, values_data, non_null, dictionary, &out->values);
  if (!s.ok()) return s;
  if (out->values.size(col.type) - before != static_cast<size_t>(non_null)) {
    return Corrupt(absl::StrCat("column '", col.name, "': page has too few values"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ColumnSchema> ParseSchemaElement(const ThriftValue& e) {
  ColumnSchema col;
  const ThriftValue* name = e.Field(4);
  if (name == nullptr || name->type != kTBinary) return Corrupt("schema element without a name");
  col.name = name->binary;
  if (IntField(e, 5).value_or(0) != 0) {
    return absl::UnimplementedError(
        absl::StrCat("column '", col.name, "': nested Parquet schemas are not supported"));
  }
  std::optional<int64_t> type = IntField(e, 1);
  if (!type.has_value()) return Corrupt(absl::StrCat("column '", col.name, "' has no type"));
  int64_t repetition = IntField(e, 3).value_or(0);
  if (repetition == 2) {
    return absl::UnimplementedError(
        absl::StrCat("column '", col.name, "': repeated Parquet columns are not supported"));
  }
  if (repetition != 0 && repetition != 1) return Corrupt("bad repetition type");
  col.optional = repetition == 1;
  col.type = static_cast<int>(*type);
  std::optional<int64_t> converted = IntField(e, 6);
  const ThriftValue* logical = StructField(e, 10);
  int logical_kind = 0;  // the union's set field, 0 for none
  if (logical != nullptr && !logical->field_ids.empty()) logical_kind = logical->field_ids[0];
  auto unsupported_annotation = [&] {
    return absl::UnimplementedError(absl::StrCat(
        "column '", col.name, "': ", PhysicalTypeName(col.type), " with converted type ",
        converted.value_or(-1), " / logical type ", logical_kind, " is not supported"));
  };
  switch (col.type) {
    case kInt32:
    case kInt64: {
      if (converted.has_value()) {
        if (*converted >= kUint8 && *converted <= kUint64) {
          col.unsigned_int = true;
        } else if (!(*converted >= kInt8 && *converted <= kInt64Converted)) {
          return unsupported_annotation();
        }
      }
      if (logical_kind == 10) {  // INTEGER(bitWidth, isSigned)
        const ThriftValue* int_type = StructField(*logical, 10);
        if (int_type != nullptr && IntField(*int_type, 2).value_or(1) == 0) col.unsigned_int = true;
      } else if (logical_kind != 0 && logical_kind != 11) {  // 11: UNKNOWN (always null)
        return unsupported_annotation();
      }
      break;
    }
    case kByteArray: {
      if (converted.has_value() && *converted != kUtf8 && *converted != kEnum &&
          *converted != kJson && *converted != kBson) {
        return unsupported_annotation();
      }
      // STRING, ENUM, UNKNOWN, JSON, BSON
      if (logical_kind != 0 && logical_kind != 1 && logical_kind != 4 && logical_kind != 11 &&
          logical_kind != 12 && logical_kind != 13) {
        return unsupported_annotation();
      }
      break;
    }
    case kBoolean:
    case kFloat:
    case kDouble:
      if (converted.has_value() || (logical_kind != 0 && logical_kind != 11)) {
        return unsupported_annotation();
      }
      break;
    default:
      return absl::UnimplementedError(absl::StrCat("column '", col.name, "': Parquet type ",
                                                   PhysicalTypeName(col.type),
                                                   " is not supported"));
  }
  return col;
}

// Where a column chunk's pages lie: [start, end) of the file, end at most
// the footer's start (a chunk may not claim to run past it).
struct ChunkRange {
  size_t start = 0, end = 0;
};

// Checks a column chunk's metadata against its schema and row group and
// returns where its pages lie (an empty range for a chunk of no rows). With
// `use_chunk_size`, the range ends after the chunk's total_compressed_size
// bytes (where it claims no more than the file holds), so that the chunk
// can be read alone; else at the footer.
absl::StatusOr<ChunkRange> ColumnChunkRange(size_t footer_start, const ColumnSchema& col,
                                            const ThriftValue& chunk, int64_t rows,
                                            bool use_chunk_size) {
  auto bad = [&](std::string_view why) {
    return Corrupt(absl::StrCat("column '", col.name, "': ", std::string(why)));
  };
  if (chunk.Field(1) != nullptr) {
    return absl::UnimplementedError("Parquet column chunks in external files are not supported");
  }
  const ThriftValue* meta = StructField(chunk, 3);
  if (meta == nullptr) return bad("column chunk without metadata");
  ASSIGN_OR_RETURN(int64_t type, RequiredInt(*meta, 1, "column type"));
  if (type != col.type) return bad("chunk type differs from the schema");
  ASSIGN_OR_RETURN(int64_t num_values, RequiredInt(*meta, 5, "num_values"));
  if (num_values != rows) return bad("chunk value count differs from the row group's rows");
  ASSIGN_OR_RETURN(int64_t data_offset, RequiredInt(*meta, 9, "data_page_offset"));
  // The chunk starts at its dictionary page, if any. pyarrow writes a
  // data_page_offset of 0 for an empty chunk (a dictionary page only).
  int64_t start = data_offset;
  std::optional<int64_t> dict_offset = IntField(*meta, 11);
  if (dict_offset.has_value() && *dict_offset >= 4 && (start < 4 || *dict_offset < start)) {
    start = *dict_offset;
  }
  if (rows == 0) return ChunkRange{};  // no values: no page need be read
  if (start < 4 || start >= static_cast<int64_t>(footer_start))
    return bad("page offset outside the file");
  ChunkRange range{static_cast<size_t>(start), footer_start};
  const std::optional<int64_t> size = IntField(*meta, 7);
  if (use_chunk_size && size.has_value() && *size > 0 &&
      *size < static_cast<int64_t>(footer_start) - start) {
    range.end = range.start + static_cast<size_t>(*size);
  }
  return range;
}

// Reads one column chunk of `rows` rows into `out`. `region` holds the
// file's bytes [region_start, region_start + region.size()), which must
// cover ColumnChunkRange(footer_start, col, chunk, rows, ...); pages
// running past the region are damage.
absl::Status ReadColumnChunk(std::string_view region, size_t region_start, size_t footer_start,
                             const ColumnSchema& col, const ThriftValue& chunk, int64_t rows,
                             ColumnData* out) {
  auto bad = [&](std::string_view why) {
    return Corrupt(absl::StrCat("column '", col.name, "': ", std::string(why)));
  };
  ASSIGN_OR_RETURN(const ChunkRange range,
                   ColumnChunkRange(footer_start, col, chunk, rows, /*use_chunk_size=*/false));
  if (rows == 0) return absl::OkStatus();
  const ThriftValue* meta = StructField(chunk, 3);
  ASSIGN_OR_RETURN(int64_t codec, RequiredInt(*meta, 4, "codec"));
  const size_t region_end = region_start + region.size();
  if (range.start < region_start || region_end > footer_start) {
    return absl::InternalError("column chunk region outside the file");
  }

  // Room for the chunk's rows at once: growing a vector of 131M values by
  // doubling would hold the old and the new buffer, 3 GB. Bounded by the
  // bytes read, so that a damaged row count cannot claim memory.
  const size_t room = static_cast<size_t>(
      std::min<uint64_t>(static_cast<uint64_t>(rows), uint64_t{8} * (region_end - range.start)));
  // (Geometric growth when a Table's column gathers many row groups.)
  auto make_room = [room](auto& v) {
    if (v.size() + room > v.capacity()) v.reserve(std::max(v.size() + room, 2 * v.capacity()));
  };
  make_room(out->present);
  switch (col.type) {
    case kInt32:
    case kInt64:
      make_room(out->values.ints);
      break;
    case kFloat:
    case kDouble:
      make_room(out->values.reals);
      break;
    case kBoolean:
      make_room(out->values.bools);
      break;
    default:
      break;
  }
  std::optional<Values> dictionary;
  int64_t done = 0;
  size_t pos = range.start;
  while (done < rows) {
    std::string_view rest =
        pos < region_end ? region.substr(pos - region_start, region_end - pos) : std::string_view();
    if (rest.empty()) return bad("column chunk ends before all its values");
    ThriftReader reader(rest);
    ThriftValue header;
    absl::Status s = reader.ReadStruct(&header);
    if (!s.ok()) return s;
    pos += reader.consumed(rest);
    ASSIGN_OR_RETURN(int64_t page_type, RequiredInt(header, 1, "page type"));
    ASSIGN_OR_RETURN(int64_t uncompressed, RequiredInt(header, 2, "uncompressed page size"));
    ASSIGN_OR_RETURN(int64_t compressed, RequiredInt(header, 3, "compressed page size"));
    if (compressed < 0 || uncompressed < 0 ||
        compressed > static_cast<int64_t>(footer_start - std::min(pos, footer_start))) {
      return bad("page size outside the file");
    }
    if (compressed > static_cast<int64_t>(region_end - std::min(pos, region_end))) {
      return bad("page runs past its column chunk's total_compressed_size");
    }
    std::string_view body = region.substr(pos - region_start, static_cast<size_t>(compressed));
    pos += static_cast<size_t>(compressed);

    if (page_type == kDictionaryPage) {
      const ThriftValue* dh = StructField(header, 7);
      if (dh == nullptr) return bad("dictionary page without its header");
      if (dictionary.has_value()) return bad("second dictionary page");
      ASSIGN_OR_RETURN(int64_t n, RequiredInt(*dh, 1, "dictionary size"));
      int64_t encoding = IntField(*dh, 2).value_or(kPlain);
      if (encoding != kPlain && encoding != kPlainDictionary) {
        return absl::UnimplementedError(
            absl::StrCat("dictionary page encoding ", EncodingName(encoding)));
      }
      if (n < 0 || n > uncompressed * 8 + 8) return bad("absurd dictionary size");
      ASSIGN_OR_RETURN(std::string data, Decompress(codec, body, uncompressed));
      dictionary.emplace();
      s = DecodePlain(col, data, n, &*dictionary);
      if (!s.ok()) return s;
      continue;
    }
    if (page_type == kIndexPage) continue;
    if (page_type != kDataPage && page_type != kDataPageV2) {
      return absl::UnimplementedError(absl::StrCat("Parquet page type ", page_type));
    }
    const bool v2 = page_type == kDataPageV2;
    const ThriftValue* dh = StructField(header, v2 ? 8 : 5);
    if (dh == nullptr) return bad("data page without its header");
    ASSIGN_OR_RETURN(int64_t n, RequiredInt(*dh, 1, "page value count"));
    if (n < 0 || n > rows - done) return bad("page holds more values than the chunk");
    const Values* dict = dictionary.has_value() ? &*dictionary : nullptr;
    if (!v2) {
      ASSIGN_OR_RETURN(int64_t encoding, RequiredInt(*dh, 2, "page encoding"));
      ASSIGN_OR_RETURN(std::string data, Decompress(codec, body, uncompressed));
      std::string_view rest_data = data;
      std::string_view levels;
      if (col.optional) {
        int64_t level_encoding = IntField(*dh, 3).value_or(kRle);
        if (level_encoding != kRle) {
          return absl::UnimplementedError(
              absl::StrCat("definition level encoding ", EncodingName(level_encoding)));
        }
        if (rest_data.size() < 4) return bad("truncated definition levels");
        uint32_t len = LoadU32(rest_data.data());
        if (len > rest_data.size() - 4) return bad("truncated definition levels");
        levels = rest_data.substr(4, len);
        rest_data = rest_data.substr(4 + len);
      }
      s = AppendPage(col, n, levels, encoding, rest_data, dict, out);
    } else {
      ASSIGN_OR_RETURN(int64_t encoding, RequiredInt(*dh, 4, "page encoding"));
      int64_t def_len = IntField(*dh, 5).value_or(0);
      int64_t rep_len = IntField(*dh, 6).value_or(0);
      if (rep_len != 0) return bad("repetition levels in a flat column");
      if (def_len < 0 || def_len > static_cast<int64_t>(body.size()) || def_len > uncompressed) {
        return bad("bad definition level length");
      }
      if (!col.optional && def_len != 0) return bad("definition levels in a required column");
      const ThriftValue* compressed_flag = dh->Field(7);
      bool is_compressed = compressed_flag == nullptr || compressed_flag->integer != 0;
      std::string_view values_body = body.substr(static_cast<size_t>(def_len));
      int64_t values_size = uncompressed - def_len;
      ASSIGN_OR_RETURN(std::string data, Decompress(is_compressed ? codec : kCodecUncompressed,
                                                    values_body, values_size));
      s = AppendPage(col, n, body.substr(0, static_cast<size_t>(def_len)), encoding, data, dict,
                     out);
    }
    if (!s.ok()) return s;
    done += n;
  }
  return absl::OkStatus();
}

Column ToTableColumn(const ColumnSchema& schema, ColumnData data) {
  Column col;
  col.name = schema.name;
  const size_t rows = data.present.size();
  const bool has_null =
      std::find(data.present.begin(), data.present.end(), 0) != data.present.end();
  col.cells.reserve(rows);
  size_t next = 0;
  switch (schema.type) {
    case kInt32:
    case kInt64:
      col.dtype = has_null ? Dtype::kFloat64 : Dtype::kInt64;
      for (size_t i = 0; i < rows; ++i) {
        if (!data.present[i]) {
          col.cells.emplace_back(std::numeric_limits<double>::quiet_NaN());
        } else if (has_null) {
          col.cells.emplace_back(static_cast<double>(data.values.ints[next++]));
        } else {
          col.cells.emplace_back(data.values.ints[next++]);
        }
      }
      break;
    case kFloat:
    case kDouble:
      col.dtype = Dtype::kFloat64;
      for (size_t i = 0; i < rows; ++i) {
        col.cells.emplace_back(data.present[i] ? data.values.reals[next++]
                                               : std::numeric_limits<double>::quiet_NaN());
      }
      break;
    case kBoolean:
      col.dtype = has_null ? Dtype::kObject : Dtype::kBool;
      for (size_t i = 0; i < rows; ++i) {
        if (data.present[i]) {
          col.cells.emplace_back(data.values.bools[next++] != 0);
        } else {
          col.cells.emplace_back(std::monostate{});
        }
      }
      break;
    default:
      col.dtype = Dtype::kObject;
      for (size_t i = 0; i < rows; ++i) {
        if (data.present[i]) {
          col.cells.emplace_back(std::move(data.values.strings[next++]));
        } else {
          col.cells.emplace_back(std::monostate{});
        }
      }
  }
  return col;
}

// Converts one chunk's rows to ReadColumn's column; `dtype` is the whole
// column's (ColumnDtype).
absl::StatusOr<TypedColumn> ToTypedColumn(const ColumnSchema& schema, ColumnData data,
                                          Dtype dtype) {
  const size_t rows = data.present.size();
  const bool has_null =
      std::find(data.present.begin(), data.present.end(), 0) != data.present.end();
  auto null_count_wrong = [&] {
    return Corrupt(absl::StrCat("column '", schema.name,
                                "': a null where the footer's null counts say there is none"));
  };
  switch (schema.type) {
    case kInt32:
    case kInt64: {
      if (dtype == Dtype::kInt64) {
        if (has_null) return null_count_wrong();
        return TypedColumn::Ints(schema.name, std::move(data.values.ints));
      }
      std::vector<double> values(rows, std::numeric_limits<double>::quiet_NaN());
      for (size_t i = 0, next = 0; i < rows; ++i) {
        if (data.present[i]) values[i] = static_cast<double>(data.values.ints[next++]);
      }
      return TypedColumn::Doubles(schema.name, std::move(values));
    }
    case kFloat:
    case kDouble: {
      if (!has_null) return TypedColumn::Doubles(schema.name, std::move(data.values.reals));
      std::vector<double> values(rows, std::numeric_limits<double>::quiet_NaN());
      for (size_t i = 0, next = 0; i < rows; ++i) {
        if (data.present[i]) values[i] = data.values.reals[next++];
      }
      return TypedColumn::Doubles(schema.name, std::move(values));
    }
    case kBoolean:
      if (dtype == Dtype::kBool) {
        if (has_null) return null_count_wrong();
        return TypedColumn::Bools(schema.name, std::move(data.values.bools));
      }
      break;
    default: {
      // The column's views and the strings they view, kept alive together.
      struct Text {
        std::vector<std::string> strings;
        std::vector<std::string_view> views;
      };
      auto text = std::make_shared<Text>();
      text->strings = std::move(data.values.strings);
      text->views.resize(rows);
      for (size_t i = 0, next = 0; i < rows; ++i) {
        if (data.present[i]) text->views[i] = text->strings[next++];
      }
      const std::span<const std::string_view> views = text->views;
      return TypedColumn::Text(schema.name, views, std::move(text));
    }
  }
  // Booleans with nulls: object cells, as the Table holds them.
  Column column = ToTableColumn(schema, std::move(data));
  return TypedColumn::Cells(std::move(column.name), dtype, std::move(column.cells));
}

// A file's footer, parsed and checked: its schema and row groups.
struct ParsedFooter {
  ThriftValue meta;
  std::vector<ColumnSchema> columns;
  int64_t num_rows = 0;
  std::vector<int64_t> group_rows;

  // Row group g's column chunk c (checked to exist and be a struct).
  const ThriftValue& Chunk(size_t g, size_t c) const {
    return ListField(ListField(meta, 4)->elements[g], 1)->elements[c];
  }
};

// The footer's length, from a file's first 4 bytes (`head`) and last 8
// (`last8`), checking its magic numbers.
absl::StatusOr<uint32_t> FooterLength(std::string_view head, std::string_view last8,
                                      size_t file_size) {
  if (file_size < 12) return Corrupt("file shorter than Parquet's header and footer");
  if (last8.substr(4) == "PARE") {
    return absl::UnimplementedError("encrypted Parquet files are not supported");
  }
  if (head.substr(0, 4) != "PAR1" || last8.substr(4) != "PAR1") {
    return absl::InvalidArgumentError("not a Parquet file (no PAR1 magic)");
  }
  uint32_t footer_len = LoadU32(last8.data());
  if (footer_len > file_size - 12) return Corrupt("footer length larger than the file");
  return footer_len;
}

absl::StatusOr<ParsedFooter> ParseFooter(std::string_view footer,
                                         const ParquetReadOptions& options) {
  ParsedFooter parsed;
  ThriftReader reader(footer);
  RETURN_IF_ERROR(reader.ReadStruct(&parsed.meta));
  const ThriftValue& meta = parsed.meta;
  const ThriftValue* schema = ListField(meta, 2);
  if (schema == nullptr || schema->elements.empty()) return Corrupt("file without a schema");
  const ThriftValue& root = schema->elements[0];
  if (root.type != kTStruct) return Corrupt("bad schema");
  int64_t num_children = IntField(root, 5).value_or(0);
  if (num_children < 0 || static_cast<size_t>(num_children) + 1 != schema->elements.size()) {
    return absl::UnimplementedError("only flat Parquet schemas are supported");
  }
  std::set<std::string> names;
  for (size_t i = 1; i < schema->elements.size(); ++i) {
    if (schema->elements[i].type != kTStruct) return Corrupt("bad schema element");
    ASSIGN_OR_RETURN(ColumnSchema col, ParseSchemaElement(schema->elements[i]));
    if (!names.insert(col.name).second) {
      return Corrupt(absl::StrCat("duplicate column name '", col.name, "'"));
    }
    parsed.columns.push_back(std::move(col));
  }
  ASSIGN_OR_RETURN(parsed.num_rows, RequiredInt(meta, 3, "num_rows"));
  if (parsed.num_rows < 0 || parsed.num_rows > options.max_rows) {
    return Corrupt(absl::StrCat("absurd row count ", parsed.num_rows));
  }
  int64_t rows_seen = 0;
  if (const ThriftValue* groups = ListField(meta, 4)) {
    for (const ThriftValue& group : groups->elements) {
      if (group.type != kTStruct) return Corrupt("bad row group");
      ASSIGN_OR_RETURN(int64_t rows, RequiredInt(group, 3, "row group num_rows"));
      if (rows < 0 || rows > parsed.num_rows - rows_seen)
        return Corrupt("row groups hold more rows than the file");
      const ThriftValue* chunks = ListField(group, 1);
      if (chunks == nullptr || chunks->elements.size() != parsed.columns.size()) {
        return Corrupt("row group column count differs from the schema");
      }
      for (const ThriftValue& chunk : chunks->elements) {
        if (chunk.type != kTStruct) return Corrupt("bad column chunk");
      }
      parsed.group_rows.push_back(rows);
      rows_seen += rows;
    }
  }
  if (rows_seen != parsed.num_rows) return Corrupt("row groups hold fewer rows than the file");
  return parsed;
}

absl::Status WithFileName(const absl::Status& status, const std::filesystem::path& path) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(path.filename().string(), ": ",
                                                  std::string(status.message())));
}

}  // namespace

absl::StatusOr<Table> ParseParquet(std::string_view bytes, const ParquetReadOptions& options) {
  ASSIGN_OR_RETURN(const uint32_t footer_len,
                   FooterLength(bytes.substr(0, 4), bytes.substr(bytes.size() >= 8 ? bytes.size() - 8 : 0),
                                bytes.size()));
  const size_t footer_start = bytes.size() - 8 - footer_len;
  ASSIGN_OR_RETURN(const ParsedFooter parsed,
                   ParseFooter(bytes.substr(footer_start, footer_len), options));
  const std::string_view region = bytes.substr(0, footer_start);
  std::vector<ColumnData> data(parsed.columns.size());
  for (size_t g = 0; g < parsed.group_rows.size(); ++g) {
    for (size_t c = 0; c < parsed.columns.size(); ++c) {
      RETURN_IF_ERROR(ReadColumnChunk(region, 0, footer_start, parsed.columns[c],
                                      parsed.Chunk(g, c), parsed.group_rows[g], &data[c]));
    }
  }
  std::vector<Column> out;
  out.reserve(parsed.columns.size());
  for (size_t c = 0; c < parsed.columns.size(); ++c) {
    out.push_back(ToTableColumn(parsed.columns[c], std::move(data[c])));
  }
  return Table(std::move(out));
}

absl::StatusOr<Table> ReadParquetFile(const std::filesystem::path& path,
                                      const ParquetReadOptions& options, int64_t max_file_bytes) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec)
    return absl::NotFoundError(absl::StrCat("cannot read ", path.string(), ": ", ec.message()));
  if (static_cast<int64_t>(size) > max_file_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.string(), " is larger than ", max_file_bytes, " bytes"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path.string()));
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size) {
    return absl::DataLossError(absl::StrCat("short read of ", path.string()));
  }
  absl::StatusOr<Table> table = ParseParquet(bytes, options);
  if (!table.ok()) {
    return absl::Status(table.status().code(), absl::StrCat(path.filename().string(), ": ",
                                                            std::string(table.status().message())));
  }
  return table;
}

struct ParquetFileReader::State {
  std::filesystem::path path;
  std::ifstream in;
  size_t footer_start = 0;
  ParsedFooter footer;
  std::vector<std::optional<Dtype>> dtypes;  // ColumnDtype's answers so far

  absl::StatusOr<size_t> ColumnIndex(std::string_view name) const {
    for (size_t c = 0; c < footer.columns.size(); ++c) {
      if (footer.columns[c].name == name) return c;
    }
    return absl::NotFoundError(
        absl::StrCat(path.filename().string(), ": no column '", std::string(name), "'"));
  }

  absl::Status ReadBytes(size_t offset, size_t size, std::string* out) {
    out->assign(size, '\0');
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(out->data(), static_cast<std::streamsize>(size));
    if (!in || static_cast<size_t>(in.gcount()) != size) {
      return absl::DataLossError(absl::StrCat("short read of ", path.string()));
    }
    return absl::OkStatus();
  }

  // Row group g's chunk of column c, decoded.
  absl::StatusOr<ColumnData> ReadChunk(size_t g, size_t c) {
    const ColumnSchema& col = footer.columns[c];
    const ThriftValue& chunk = footer.Chunk(g, c);
    const int64_t rows = footer.group_rows[g];
    ASSIGN_OR_RETURN(const ChunkRange range,
                     ColumnChunkRange(footer_start, col, chunk, rows, /*use_chunk_size=*/true));
    std::string bytes;
    RETURN_IF_ERROR(ReadBytes(range.start, range.end - range.start, &bytes));
    ColumnData data;
    RETURN_IF_ERROR(ReadColumnChunk(bytes, range.start, footer_start, col, chunk, rows, &data));
    return data;
  }

  absl::StatusOr<Dtype> DtypeOf(size_t c) {
    if (dtypes[c].has_value()) return *dtypes[c];
    const ColumnSchema& col = footer.columns[c];
    Dtype dtype = Dtype::kObject;
    switch (col.type) {
      case kInt32:
      case kInt64:
      case kBoolean: {
        bool has_null = false;
        for (size_t g = 0; col.optional && !has_null && g < footer.group_rows.size(); ++g) {
          const ThriftValue* meta = StructField(footer.Chunk(g, c), 3);
          const ThriftValue* stats = meta == nullptr ? nullptr : StructField(*meta, 12);
          const std::optional<int64_t> nulls =
              stats == nullptr ? std::nullopt : IntField(*stats, 3);
          if (nulls.has_value() && *nulls >= 0) {
            has_null = *nulls > 0;
            continue;
          }
          ASSIGN_OR_RETURN(const ColumnData data, ReadChunk(g, c));
          has_null = std::find(data.present.begin(), data.present.end(), 0) != data.present.end();
        }
        if (col.type == kBoolean) {
          dtype = has_null ? Dtype::kObject : Dtype::kBool;
        } else {
          dtype = has_null ? Dtype::kFloat64 : Dtype::kInt64;
        }
        break;
      }
      case kFloat:
      case kDouble:
        dtype = Dtype::kFloat64;
        break;
      default:
        dtype = Dtype::kObject;
    }
    dtypes[c] = dtype;
    return dtype;
  }
};

ParquetFileReader::ParquetFileReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
ParquetFileReader::ParquetFileReader(ParquetFileReader&&) noexcept = default;
ParquetFileReader& ParquetFileReader::operator=(ParquetFileReader&&) noexcept = default;
ParquetFileReader::~ParquetFileReader() = default;

absl::StatusOr<ParquetFileReader> ParquetFileReader::Open(const std::filesystem::path& path,
                                                          const ParquetReadOptions& options) {
  auto state = std::make_unique<State>();
  state->path = path;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec)
    return absl::NotFoundError(absl::StrCat("cannot read ", path.string(), ": ", ec.message()));
  state->in.open(path, std::ios::binary);
  if (!state->in) return absl::NotFoundError(absl::StrCat("cannot open ", path.string()));
  std::string head, last8;
  if (size >= 12) {
    RETURN_IF_ERROR(state->ReadBytes(0, 4, &head));
    RETURN_IF_ERROR(state->ReadBytes(size - 8, 8, &last8));
  }
  absl::StatusOr<uint32_t> footer_len = FooterLength(head, last8, size);
  RETURN_IF_ERROR(WithFileName(footer_len.status(), path));
  state->footer_start = size - 8 - *footer_len;
  std::string footer;
  RETURN_IF_ERROR(state->ReadBytes(state->footer_start, *footer_len, &footer));
  absl::StatusOr<ParsedFooter> parsed = ParseFooter(footer, options);
  RETURN_IF_ERROR(WithFileName(parsed.status(), path));
  state->footer = *std::move(parsed);
  state->dtypes.resize(state->footer.columns.size());
  return ParquetFileReader(std::move(state));
}

int64_t ParquetFileReader::num_rows() const { return state_->footer.num_rows; }

int ParquetFileReader::num_row_groups() const {
  return static_cast<int>(state_->footer.group_rows.size());
}

int64_t ParquetFileReader::row_group_rows(int group) const {
  return state_->footer.group_rows.at(static_cast<size_t>(group));
}

std::vector<std::string> ParquetFileReader::ColumnNames() const {
  std::vector<std::string> names;
  for (const ColumnSchema& c : state_->footer.columns) names.push_back(c.name);
  return names;
}

absl::StatusOr<Dtype> ParquetFileReader::ColumnDtype(std::string_view name) {
  ASSIGN_OR_RETURN(const size_t c, state_->ColumnIndex(name));
  absl::StatusOr<Dtype> dtype = state_->DtypeOf(c);
  RETURN_IF_ERROR(WithFileName(dtype.status(), state_->path));
  return dtype;
}

absl::StatusOr<TypedColumn> ParquetFileReader::ReadColumn(int group, std::string_view name) {
  if (group < 0 || group >= num_row_groups()) {
    return absl::OutOfRangeError(absl::StrCat(state_->path.filename().string(), ": no row group ",
                                              group));
  }
  ASSIGN_OR_RETURN(const Dtype dtype, ColumnDtype(name));
  ASSIGN_OR_RETURN(const size_t c, state_->ColumnIndex(name));
  absl::StatusOr<ColumnData> data = state_->ReadChunk(static_cast<size_t>(group), c);
  RETURN_IF_ERROR(WithFileName(data.status(), state_->path));
  absl::StatusOr<TypedColumn> column =
      ToTypedColumn(state_->footer.columns[c], *std::move(data), dtype);
  RETURN_IF_ERROR(WithFileName(column.status(), state_->path));
  return column;
}

}  // namespace mlebench
