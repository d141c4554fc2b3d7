#ifndef MLEBENCH_FORMATS_BSON_H_
#define MLEBENCH_FORMATS_BSON_H_

// A small reader and writer of BSON (bsonspec.org, version 1.1) documents, as
// concatenated in Kaggle's .bson files, for the use upstream's prepare.py
// makes of pymongo's `bson` module: `decode_file_iter` over a file and
// `BSON.encode` of the decoded dict, possibly with keys deleted.
//
// Values stay encoded: a document is its ordered list of elements, each its
// key, type byte and the bytes of its value. Re-encoding a decoded document
// therefore reproduces its bytes, as pymongo does for the types accepted
// here (pymongo decodes int32/int64/double/string/binary/bool/... into types
// that it encodes back to the same type byte and bytes). Types that pymongo
// would NOT write back unchanged (undefined -> null, symbol -> string) and the
// deprecated DBPointer and code-with-scope are rejected as unsupported.
// Differences left: a document with a repeated key (pymongo keeps only the
// last value, at the first key's position) is kept as is here.

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// BSON element type bytes used by name in this project.
enum class BsonType : uint8_t {
  kDouble = 0x01,
  kString = 0x02,
  kDocument = 0x03,
  kArray = 0x04,
  kBinary = 0x05,
  kObjectId = 0x07,
  kBool = 0x08,
  kDateTime = 0x09,
  kNull = 0x0A,
  kRegex = 0x0B,
  kJavaScript = 0x0D,
  kInt32 = 0x10,
  kTimestamp = 0x11,
  kInt64 = 0x12,
  kDecimal128 = 0x13,
  kMinKey = 0xFF,
  kMaxKey = 0x7F,
};

struct BsonDocument;

// One element: `value` holds the bytes that follow the key's terminating NUL
// (e.g. 4 little-endian bytes for an int32, the whole embedded document for a
// document or an array).
struct BsonElement {
  std::string key;
  BsonType type = BsonType::kNull;
  std::string value;

  // The value of an int32 or int64 element, or InvalidArgumentError naming
  // the key and its type.
  absl::StatusOr<int64_t> Integer() const;
  // The payload of a binary element, or InvalidArgumentError.
  absl::StatusOr<std::string> Binary() const;
  // The embedded document of a document or array element (an array's keys
  // are "0", "1", ...), or InvalidArgumentError.
  absl::StatusOr<BsonDocument> Document() const;

  static BsonElement Int32(std::string key, int32_t value);
  static BsonElement Int64(std::string key, int64_t value);
  static BsonElement Double(std::string key, double value);
  static BsonElement String(std::string key, std::string_view utf8);
  static BsonElement Binary(std::string key, std::string_view bytes, uint8_t subtype = 0);
  static BsonElement Bool(std::string key, bool value);
  static BsonElement Null(std::string key);
  static BsonElement Subdocument(std::string key, const BsonDocument& document);
  // An array of `items`, whose keys are replaced by "0", "1", ...
  static BsonElement Array(std::string key, std::vector<BsonElement> items);
};

struct BsonDocument {
  std::vector<BsonElement> elements;

  // The first element called `key`, or nullptr.
  const BsonElement* Find(std::string_view key) const;
  // Removes every element called `key` (pymongo's `del record[key]`);
  // returns whether one was present.
  bool Erase(std::string_view key);
};

// The bytes of `document`: int32 total length, the elements, a NUL.
std::string EncodeBson(const BsonDocument& document);

// Decodes one whole document from `bytes` (exactly one, nothing after it).
// Structure is checked recursively: lengths within bounds, strings and keys
// NUL-terminated, strings valid UTF-8, bools 0 or 1, known types only.
// Malformed bytes are InvalidArgumentError saying what and at which offset.
absl::StatusOr<BsonDocument> DecodeBson(std::string_view bytes);

// Every document of a concatenation of documents (pymongo's `decode_all`).
absl::StatusOr<std::vector<BsonDocument>> DecodeBsonSequence(std::string_view bytes);

// Streams the documents of a .bson file one at a time (pymongo's
// `decode_file_iter`), so files far larger than memory can be read.
class BsonFileReader {
 public:
  // NotFoundError if `path` cannot be opened.
  static absl::StatusOr<BsonFileReader> Open(const std::string& path);

  // The next document, std::nullopt at a clean end of file, or
  // InvalidArgumentError (a truncated or malformed document, naming the
  // file's byte offset).
  absl::StatusOr<std::optional<BsonDocument>> Next();

 private:
  explicit BsonFileReader(std::string path) : path_(std::move(path)) {}
  std::string path_;
  std::ifstream in_;
  uint64_t offset_ = 0;
};

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_BSON_H_
