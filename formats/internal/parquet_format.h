// Parquet's enums (parquet.thrift) and page compression, shared by the
// reader and the writer. Header-only; not for other callers.
#ifndef MLEBENCH_FORMATS_INTERNAL_PARQUET_FORMAT_H_
#define MLEBENCH_FORMATS_INTERNAL_PARQUET_FORMAT_H_

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "formats/parquet.h"
#include "formats/internal/thrift_compact.h"

namespace mlebench::parquet_internal {

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

inline std::string PhysicalTypeName(int64_t t) {
  static const char* const kNames[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                       "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
  if (t >= 0 && t < 8) return kNames[t];
  return absl::StrCat("type ", t);
}

inline std::string CodecName(int64_t c) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                       "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  if (c >= 0 && c < 8) return kNames[c];
  return absl::StrCat("codec ", c);
}

inline std::string EncodingName(int64_t e) {
  static const char* const kNames[] = {
      "PLAIN",          "GROUP_VAR_INT",       "PLAIN_DICTIONARY",        "RLE",
      "BIT_PACKED",     "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  if (e >= 0 && e < 10) return kNames[e];
  return absl::StrCat("encoding ", e);
}

// ---------------------------------------------------------------------------
// Decompression.

inline absl::StatusOr<std::string> Decompress(int64_t codec, std::string_view in, int64_t size) {
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

inline absl::StatusOr<std::string> Compress(ParquetCompression codec, std::string_view in) {
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

inline int64_t CodecId(ParquetCompression c) {
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

}  // namespace mlebench::parquet_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_PARQUET_FORMAT_H_
