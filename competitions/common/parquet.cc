#include "competitions/common/parquet.h"

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

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

namespace mlebench {
namespace {

// ---------------------------------------------------------------------------
// Thrift compact protocol: a generic decoder into a small value tree (the
// footer and page headers are tiny), and an encoder for the writer.

enum ThriftType : uint8_t {
  kTStop = 0,
  kTBoolTrue = 1,
  kTBoolFalse = 2,
  kTByte = 3,
  kTI16 = 4,
  kTI32 = 5,
  kTI64 = 6,
  kTDouble = 7,
  kTBinary = 8,
  kTList = 9,
  kTSet = 10,
  kTMap = 11,
  kTStruct = 12,
};

struct ThriftValue {
  uint8_t type = kTStop;
  int64_t integer = 0;  // bools, bytes, i16, i32, i64
  double real = 0;
  std::string binary;
  std::vector<ThriftValue> elements;  // list, set, map (keys and values interleaved)
  std::vector<int16_t> field_ids;     // struct
  std::vector<ThriftValue> fields;    // struct, parallel to field_ids

  const ThriftValue* Field(int16_t id) const {
    for (size_t i = 0; i < field_ids.size(); ++i) {
      if (field_ids[i] == id) return &fields[i];
    }
    return nullptr;
  }
};

absl::Status Corrupt(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("corrupt Parquet file: ", std::string(what)));
}

class ThriftReader {
 public:
  explicit ThriftReader(std::string_view bytes)
      : pos_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(pos_ + bytes.size()) {}

  size_t consumed(std::string_view bytes) const {
    return static_cast<size_t>(pos_ - reinterpret_cast<const uint8_t*>(bytes.data()));
  }

  absl::Status ReadStruct(ThriftValue* out, int depth = 0) {
    if (depth > 32) return Corrupt("Thrift structures nested too deeply");
    out->type = kTStruct;
    int16_t last_id = 0;
    while (true) {
      uint8_t header;
      if (!Byte(&header)) return Truncated();
      if (header == kTStop) return absl::OkStatus();
      uint8_t type = header & 0x0f;
      int16_t id;
      if ((header >> 4) != 0) {
        id = static_cast<int16_t>(last_id + (header >> 4));
      } else {
        int64_t v;
        if (!ZigZag(&v)) return Truncated();
        id = static_cast<int16_t>(v);
      }
      last_id = id;
      ThriftValue value;
      if (type == kTBoolTrue || type == kTBoolFalse) {
        value.type = kTBoolTrue;
        value.integer = type == kTBoolTrue ? 1 : 0;
      } else {
        absl::Status s = ReadValue(type, &value, depth + 1);
        if (!s.ok()) return s;
      }
      out->field_ids.push_back(id);
      out->fields.push_back(std::move(value));
    }
  }

 private:
  absl::Status Truncated() { return Corrupt("truncated Thrift data"); }

  bool Byte(uint8_t* b) {
    if (pos_ >= end_) return false;
    *b = *pos_++;
    return true;
  }

  bool Varint(uint64_t* out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      uint8_t b;
      if (!Byte(&b)) return false;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *out = v;
        return true;
      }
    }
    return false;
  }

  bool ZigZag(int64_t* out) {
    uint64_t v;
    if (!Varint(&v)) return false;
    *out = static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    return true;
  }

  absl::Status ReadValue(uint8_t type, ThriftValue* out, int depth) {
    if (depth > 32) return Corrupt("Thrift structures nested too deeply");
    out->type = type;
    switch (type) {
      case kTBoolTrue:
      case kTBoolFalse: {  // inside lists: one byte
        uint8_t b;
        if (!Byte(&b)) return Truncated();
        out->type = kTBoolTrue;
        out->integer = b == 1 ? 1 : 0;
        return absl::OkStatus();
      }
      case kTByte: {
        uint8_t b;
        if (!Byte(&b)) return Truncated();
        out->integer = static_cast<int8_t>(b);
        return absl::OkStatus();
      }
      case kTI16:
      case kTI32:
      case kTI64:
        if (!ZigZag(&out->integer)) return Truncated();
        return absl::OkStatus();
      case kTDouble: {
        if (end_ - pos_ < 8) return Truncated();
        std::memcpy(&out->real, pos_, 8);
        pos_ += 8;
        return absl::OkStatus();
      }
      case kTBinary: {
        uint64_t n;
        if (!Varint(&n)) return Truncated();
        if (n > static_cast<uint64_t>(end_ - pos_)) return Truncated();
        out->binary.assign(reinterpret_cast<const char*>(pos_), n);
        pos_ += n;
        return absl::OkStatus();
      }
      case kTList:
      case kTSet: {
        uint8_t header;
        if (!Byte(&header)) return Truncated();
        uint64_t n = header >> 4;
        if (n == 15 && !Varint(&n)) return Truncated();
        uint8_t elem = header & 0x0f;
        // Every element takes at least one byte.
        if (n > static_cast<uint64_t>(end_ - pos_)) return Truncated();
        out->elements.resize(n);
        for (auto& e : out->elements) {
          absl::Status s = ReadValue(elem, &e, depth + 1);
          if (!s.ok()) return s;
        }
        return absl::OkStatus();
      }
      case kTMap: {
        uint64_t n;
        if (!Varint(&n)) return Truncated();
        if (n == 0) return absl::OkStatus();
        uint8_t kv;
        if (!Byte(&kv)) return Truncated();
        if (n > static_cast<uint64_t>(end_ - pos_) / 2) return Truncated();
        out->elements.resize(2 * n);
        for (size_t i = 0; i < 2 * n; ++i) {
          absl::Status s =
              ReadValue(i % 2 == 0 ? kv >> 4 : kv & 0x0f, &out->elements[i], depth + 1);
          if (!s.ok()) return s;
        }
        return absl::OkStatus();
      }
      case kTStruct:
        return ReadStruct(out, depth + 1);
      default:
        return Corrupt(absl::StrCat("unknown Thrift type ", static_cast<int>(type)));
    }
  }

  const uint8_t* pos_;
  const uint8_t* end_;
};

class ThriftWriter {
 public:
  const std::string& bytes() const { return out_; }

  void BeginStruct() { last_ids_.push_back(0); }
  void EndStruct() {
    out_.push_back(static_cast<char>(kTStop));
    last_ids_.pop_back();
  }
  void I32(int16_t id, int64_t v) {
    Header(id, kTI32);
    ZigZag(v);
  }
  void I64(int16_t id, int64_t v) {
    Header(id, kTI64);
    ZigZag(v);
  }
  void Bool(int16_t id, bool v) { Header(id, v ? kTBoolTrue : kTBoolFalse); }
  void Binary(int16_t id, std::string_view v) {
    Header(id, kTBinary);
    BinaryValue(v);
  }
  void StructField(int16_t id) {
    Header(id, kTStruct);
    BeginStruct();
  }
  void ListField(int16_t id, uint8_t elem_type, size_t n) {
    Header(id, kTList);
    if (n < 15) {
      out_.push_back(static_cast<char>((n << 4) | elem_type));
    } else {
      out_.push_back(static_cast<char>(0xf0 | elem_type));
      Varint(n);
    }
  }
  // List elements.
  void I32Value(int64_t v) { ZigZag(v); }
  void BinaryValue(std::string_view v) {
    Varint(v.size());
    out_.append(v);
  }

 private:
  void Header(int16_t id, uint8_t type) {
    int16_t delta = static_cast<int16_t>(id - last_ids_.back());
    if (delta > 0 && delta <= 15) {
      out_.push_back(static_cast<char>((delta << 4) | type));
    } else {
      out_.push_back(static_cast<char>(type));
      ZigZag(id);
    }
    last_ids_.back() = id;
  }
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void ZigZag(int64_t v) {
    Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

  std::string out_;
  std::vector<int16_t> last_ids_;
};

// Typed accessors with Parquet-level error messages.
std::optional<int64_t> IntField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  if (f == nullptr || f->type == kTStruct || f->type == kTList || f->type == kTBinary ||
      f->type == kTDouble || f->type == kTMap || f->type == kTSet) {
    return std::nullopt;
  }
  return f->integer;
}

absl::StatusOr<int64_t> RequiredInt(const ThriftValue& s, int16_t id, std::string_view what) {
  std::optional<int64_t> v = IntField(s, id);
  if (!v.has_value()) return Corrupt(absl::StrCat("missing ", std::string(what)));
  return *v;
}

const ThriftValue* StructField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  return f != nullptr && f->type == kTStruct ? f : nullptr;
}

const ThriftValue* ListField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  return f != nullptr && (f->type == kTList || f->type == kTSet) ? f : nullptr;
}

// ---------------------------------------------------------------------------
// Parquet enums (parquet.thrift).

enum PhysicalType {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7
};
enum Codec { kCodecUncompressed = 0, kCodecSnappy = 1, kCodecGzip = 2, kCodecZstd = 6 };
enum Encoding { kPlain = 0, kPlainDictionary = 2, kRle = 3, kBitPacked = 4, kRleDictionary = 8 };
enum PageType { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };
enum ConvertedType {
  kUtf8 = 0,
  kEnum = 4,
  kUint8 = 11,
  kUint16 = 12,
  kUint32 = 13,
  kUint64 = 14,
  kInt8 = 15,
  kInt16 = 16,
  kInt32Converted = 17,
  kInt64Converted = 18,
  kJson = 19,
  kBson = 20
};

constexpr int64_t kMaxPageBytes = int64_t{1} << 31;

std::string PhysicalTypeName(int64_t t) {
  static const char* const kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                       "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  if (t >= 0 && t < 8) return kNames[t];
  return absl::StrCat("type ", t);
}

std::string CodecName(int64_t c) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                       "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  if (c >= 0 && c < 8) return kNames[c];
  return absl::StrCat("codec ", c);
}

std::string EncodingName(int64_t e) {
  static const char* const kNames[] = {
      "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
      "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  if (e >= 0 && e < 10) return kNames[e];
  return absl::StrCat("encoding ", e);
}

// ---------------------------------------------------------------------------
// Decompression.

absl::StatusOr<std::string> Decompress(int64_t codec, std::string_view in, int64_t size) {
  if (size < 0 || size > kMaxPageBytes) return Corrupt("absurd uncompressed page size");
  switch (codec) {
    case kCodecUncompressed:
      if (static_cast<int64_t>(in.size()) != size) {
        return Corrupt("uncompressed page size differs from its compressed size");
      }
      return std::string(in);
    case kCodecSnappy: {
      size_t n;
      if (snappy_uncompressed_length(in.data(), in.size(), &n) != SNAPPY_OK ||
          static_cast<int64_t>(n) != size) {
        return Corrupt("bad Snappy page");
      }
      std::string out(n, '\0');
      if (snappy_uncompress(in.data(), in.size(), out.data(), &n) != SNAPPY_OK ||
          static_cast<int64_t>(n) != size) {
        return Corrupt("bad Snappy page");
      }
      return out;
    }
    case kCodecGzip: {
      // Deflate expands at most ~1032:1; refuse claims beyond that before allocating.
      if (size > static_cast<int64_t>(in.size()) * 1100 + 1024) return Corrupt("bad GZIP page");
      std::string out(size, '\0');
      z_stream zs{};
      if (inflateInit2(&zs, 15 + 32) != Z_OK) return absl::InternalError("inflateInit2 failed");
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      zs.avail_in = static_cast<uInt>(in.size());
      zs.next_out = reinterpret_cast<Bytef*>(out.data());
      zs.avail_out = static_cast<uInt>(out.size());
      int rc = inflate(&zs, Z_FINISH);
      int64_t produced = static_cast<int64_t>(zs.total_out);
      inflateEnd(&zs);
      if (rc != Z_STREAM_END || produced != size) return Corrupt("bad GZIP page");
      return out;
    }
    case kCodecZstd: {
      unsigned long long content = ZSTD_getFrameContentSize(in.data(), in.size());
      if (content == ZSTD_CONTENTSIZE_ERROR || (content != ZSTD_CONTENTSIZE_UNKNOWN &&
                                                content != static_cast<unsigned long long>(size))) {
        return Corrupt("bad ZSTD page");
      }
      std::string out(size, '\0');
      size_t n = ZSTD_decompress(out.data(), out.size(), in.data(), in.size());
      if (ZSTD_isError(n) || static_cast<int64_t>(n) != size) return Corrupt("bad ZSTD page");
      return out;
    }
    default:
      return absl::UnimplementedError(
          absl::StrCat("Parquet compression ", CodecName(codec), " is not supported"));
  }
}

absl::StatusOr<std::string> Compress(ParquetCompression codec, std::string_view in) {
  switch (codec) {
    case ParquetCompression::kUncompressed:
      return std::string(in);
    case ParquetCompression::kSnappy: {
      size_t n = snappy_max_compressed_length(in.size());
      std::string out(n, '\0');
      if (snappy_compress(in.data(), in.size(), out.data(), &n) != SNAPPY_OK) {
        return absl::InternalError("snappy_compress failed");
      }
      out.resize(n);
      return out;
    }
    case ParquetCompression::kGzip: {
      z_stream zs{};
      if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return absl::InternalError("deflateInit2 failed");
      }
      std::string out(deflateBound(&zs, in.size()) + 32, '\0');
      zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
      zs.avail_in = static_cast<uInt>(in.size());
      zs.next_out = reinterpret_cast<Bytef*>(out.data());
      zs.avail_out = static_cast<uInt>(out.size());
      int rc = deflate(&zs, Z_FINISH);
      out.resize(zs.total_out);
      deflateEnd(&zs);
      if (rc != Z_STREAM_END) return absl::InternalError("deflate failed");
      return out;
    }
    case ParquetCompression::kZstd: {
      std::string out(ZSTD_compressBound(in.size()), '\0');
      size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
      if (ZSTD_isError(n)) return absl::InternalError("ZSTD_compress failed");
      out.resize(n);
      return out;
    }
  }
  return absl::InternalError("unknown compression");
}

int64_t CodecId(ParquetCompression c) {
  switch (c) {
    case ParquetCompression::kUncompressed:
      return kCodecUncompressed;
    case ParquetCompression::kSnappy:
      return kCodecSnappy;
    case ParquetCompression::kGzip:
      return kCodecGzip;
    case ParquetCompression::kZstd:
      return kCodecZstd;
  }
  return kCodecUncompressed;
}

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

// Reads one column chunk of `rows` rows from `file` into `out`.
absl::Status ReadColumnChunk(std::string_view file, size_t footer_start, const ColumnSchema& col,
                             const ThriftValue& chunk, int64_t rows, ColumnData* out) {
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
  ASSIGN_OR_RETURN(int64_t codec, RequiredInt(*meta, 4, "codec"));
  ASSIGN_OR_RETURN(int64_t num_values, RequiredInt(*meta, 5, "num_values"));
  if (num_values != rows) return bad("chunk value count differs from the row group's rows");
  ASSIGN_OR_RETURN(int64_t data_offset, RequiredInt(*meta, 9, "data_page_offset"));
  int64_t start = data_offset;
  std::optional<int64_t> dict_offset = IntField(*meta, 11);
  if (dict_offset.has_value() && *dict_offset >= 4 && *dict_offset < start) start = *dict_offset;
  if (start < 4 || start >= static_cast<int64_t>(footer_start))
    return bad("page offset outside the file");

  std::optional<Values> dictionary;
  int64_t done = 0;
  size_t pos = static_cast<size_t>(start);
  while (done < rows) {
    std::string_view rest = file.substr(pos, footer_start - pos);
    if (rest.empty()) return bad("column chunk ends before all its values");
    ThriftReader reader(rest);
    ThriftValue header;
    absl::Status s = reader.ReadStruct(&header);
    if (!s.ok()) return s;
    pos += reader.consumed(rest);
    ASSIGN_OR_RETURN(int64_t page_type, RequiredInt(header, 1, "page type"));
    ASSIGN_OR_RETURN(int64_t uncompressed, RequiredInt(header, 2, "uncompressed page size"));
    ASSIGN_OR_RETURN(int64_t compressed, RequiredInt(header, 3, "compressed page size"));
    if (compressed < 0 || compressed > static_cast<int64_t>(footer_start - pos) ||
        uncompressed < 0) {
      return bad("page size outside the file");
    }
    std::string_view body = file.substr(pos, static_cast<size_t>(compressed));
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

}  // namespace

absl::StatusOr<Table> ParseParquet(std::string_view bytes, const ParquetReadOptions& options) {
  if (bytes.size() < 12) return Corrupt("file shorter than Parquet's header and footer");
  if (bytes.substr(bytes.size() - 4) == "PARE") {
    return absl::UnimplementedError("encrypted Parquet files are not supported");
  }
  if (bytes.substr(0, 4) != "PAR1" || bytes.substr(bytes.size() - 4) != "PAR1") {
    return absl::InvalidArgumentError("not a Parquet file (no PAR1 magic)");
  }
  uint32_t footer_len = LoadU32(bytes.data() + bytes.size() - 8);
  if (footer_len > bytes.size() - 12) return Corrupt("footer length larger than the file");
  const size_t footer_start = bytes.size() - 8 - footer_len;
  std::string_view footer = bytes.substr(footer_start, footer_len);
  ThriftReader reader(footer);
  ThriftValue meta;
  absl::Status s = reader.ReadStruct(&meta);
  if (!s.ok()) return s;

  const ThriftValue* schema = ListField(meta, 2);
  if (schema == nullptr || schema->elements.empty()) return Corrupt("file without a schema");
  const ThriftValue& root = schema->elements[0];
  if (root.type != kTStruct) return Corrupt("bad schema");
  int64_t num_children = IntField(root, 5).value_or(0);
  if (num_children < 0 || static_cast<size_t>(num_children) + 1 != schema->elements.size()) {
    return absl::UnimplementedError("only flat Parquet schemas are supported");
  }
  std::vector<ColumnSchema> columns;
  std::set<std::string> names;
  for (size_t i = 1; i < schema->elements.size(); ++i) {
    if (schema->elements[i].type != kTStruct) return Corrupt("bad schema element");
    ASSIGN_OR_RETURN(ColumnSchema col, ParseSchemaElement(schema->elements[i]));
    if (!names.insert(col.name).second) {
      return Corrupt(absl::StrCat("duplicate column name '", col.name, "'"));
    }
    columns.push_back(std::move(col));
  }
  ASSIGN_OR_RETURN(int64_t num_rows, RequiredInt(meta, 3, "num_rows"));
  if (num_rows < 0 || num_rows > options.max_rows) {
    return Corrupt(absl::StrCat("absurd row count ", num_rows));
  }
  std::vector<ColumnData> data(columns.size());
  int64_t rows_seen = 0;
  if (const ThriftValue* groups = ListField(meta, 4)) {
    for (const ThriftValue& group : groups->elements) {
      if (group.type != kTStruct) return Corrupt("bad row group");
      ASSIGN_OR_RETURN(int64_t rows, RequiredInt(group, 3, "row group num_rows"));
      if (rows < 0 || rows > num_rows - rows_seen)
        return Corrupt("row groups hold more rows than the file");
      const ThriftValue* chunks = ListField(group, 1);
      if (chunks == nullptr || chunks->elements.size() != columns.size()) {
        return Corrupt("row group column count differs from the schema");
      }
      for (size_t c = 0; c < columns.size(); ++c) {
        if (chunks->elements[c].type != kTStruct) return Corrupt("bad column chunk");
        s = ReadColumnChunk(bytes, footer_start, columns[c], chunks->elements[c], rows, &data[c]);
        if (!s.ok()) return s;
      }
      rows_seen += rows;
    }
  }
  if (rows_seen != num_rows) return Corrupt("row groups hold fewer rows than the file");
  std::vector<Column> out;
  out.reserve(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    out.push_back(ToTableColumn(columns[c], std::move(data[c])));
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

absl::StatusOr<std::string> SerializeParquet(const Table& table,
                                             const ParquetWriteOptions& options) {
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
  const size_t rows = table.num_rows();
  const size_t page_rows = options.rows_per_page > 0 ? static_cast<size_t>(options.rows_per_page)
                                                     : std::max<size_t>(rows, 1);
  const int64_t codec = CodecId(options.compression);
  std::string file = "PAR1";
  std::vector<WriteColumn> plans;
  struct ChunkInfo {
    int64_t start = 0, data_offset = 0, dict_offset = -1, compressed = 0, uncompressed = 0;
  };
  std::vector<ChunkInfo> infos;
  for (const Column& column : table.columns()) {
    ASSIGN_OR_RETURN(WriteColumn plan, PlanColumn(column, options));
    WriteColumn& w = plan;
    ChunkInfo info;
    info.start = static_cast<int64_t>(file.size());
    // With a dictionary: the distinct values in order of first appearance,
    // and each value's index among them.
    std::vector<std::string_view> distinct;
    std::vector<uint32_t> indices;
    int bit_width = 1;
    // Booleans are never dictionary-encoded (no writer does; some readers
    // take a boolean page's dictionary encoding for RLE).
    const bool dictionary = options.dictionary && w.physical != kBoolean;
    if (dictionary) {
      std::map<std::string_view, uint32_t> seen;
      for (size_t i = 0; i < w.num_values(); ++i) {
        auto [it, inserted] = seen.emplace(w.Value(i), static_cast<uint32_t>(distinct.size()));
        if (inserted) distinct.push_back(w.Value(i));
        indices.push_back(it->second);
      }
      while ((size_t{1} << bit_width) < distinct.size()) ++bit_width;
      std::string dict_body = PlainBytes(
          w.physical, [&](size_t i) { return distinct[i]; }, 0, distinct.size());
      ASSIGN_OR_RETURN(std::string compressed, Compress(options.compression, dict_body));
      std::string header = PageHeaderBytes(kDictionaryPage, dict_body.size(), compressed.size(),
                                           [&](ThriftWriter& t) {
                                             t.StructField(7);
                                             t.I32(1, static_cast<int64_t>(distinct.size()));
                                             t.I32(2, kPlain);
                                             t.EndStruct();
                                           });
      info.dict_offset = static_cast<int64_t>(file.size());
      file += header;
      file += compressed;
      info.compressed += static_cast<int64_t>(header.size() + compressed.size());
      info.uncompressed += static_cast<int64_t>(header.size() + dict_body.size());
    }
    info.data_offset = static_cast<int64_t>(file.size());
    size_t value_pos = 0;
    for (size_t begin = 0; begin < rows || (begin == 0 && rows == 0); begin += page_rows) {
      const size_t end = std::min(rows, begin + page_rows);
      size_t non_null = 0;
      for (size_t i = begin; i < end; ++i) non_null += w.present[i];
      std::string levels = w.optional ? EncodeLevelRuns(w.present, begin, end) : std::string();
      std::string values;
      int64_t encoding = kPlain;
      if (dictionary) {
        encoding = options.data_page_version == 1 ? kPlainDictionary : kRleDictionary;
        values.push_back(static_cast<char>(bit_width));
        values += EncodeBitPacked(indices, value_pos, value_pos + non_null, bit_width);
      } else {
        values = PlainBytes(
            w.physical, [&](size_t i) { return w.Value(i); }, value_pos, value_pos + non_null);
      }
      value_pos += non_null;
      std::string header, body;
      size_t uncompressed_size;
      if (options.data_page_version == 1) {
        std::string raw;
        if (w.optional) {
          PutU32(&raw, static_cast<uint32_t>(levels.size()));
          raw += levels;
        }
        raw += values;
        ASSIGN_OR_RETURN(std::string compressed, Compress(options.compression, raw));
        body = std::move(compressed);
        uncompressed_size = raw.size();
        header = PageHeaderBytes(kDataPage, raw.size(), body.size(), [&](ThriftWriter& t) {
          t.StructField(5);
          t.I32(1, static_cast<int64_t>(end - begin));
          t.I32(2, encoding);
          t.I32(3, kRle);
          t.I32(4, kRle);
          t.EndStruct();
        });
      } else {
        ASSIGN_OR_RETURN(std::string compressed, Compress(options.compression, values));
        body = levels + compressed;
        uncompressed_size = levels.size() + values.size();
        header = PageHeaderBytes(kDataPageV2, uncompressed_size, body.size(), [&](ThriftWriter& t) {
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
      }
      file += header;
      file += body;
      info.compressed += static_cast<int64_t>(header.size() + body.size());
      info.uncompressed += static_cast<int64_t>(header.size() + uncompressed_size);
      if (rows == 0) break;
    }
    // Only the schema fields are needed from here on.
    w.data = std::string();
    w.offsets = std::vector<size_t>();
    w.present = std::vector<uint8_t>();
    plans.push_back(std::move(w));
    infos.push_back(info);
  }

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
  file += t.bytes();
  PutU32(&file, static_cast<uint32_t>(t.bytes().size()));
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
