#include "formats/bson.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

uint32_t LoadU32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint64_t LoadU64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

void AppendU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

void AppendU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

absl::Status Malformed(size_t offset, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("malformed BSON at byte ", offset, ": ", std::string(what)));
}

// Parses the document occupying exactly bytes[begin, begin + length), where
// `length` was read from its first four bytes by the caller. `base` is the
// document's offset in the outermost input, for messages.
absl::StatusOr<BsonDocument> ParseDocument(std::string_view bytes, size_t base, int depth);

// The size of the value of type `type` starting at `p` (with `avail` bytes
// left before the enclosing document's terminator), after checking it.
absl::StatusOr<size_t> CheckValue(uint8_t type, std::string_view bytes, size_t pos, size_t end,
                                  size_t base, int depth) {
  const size_t avail = end - pos;
  auto need = [&](size_t n) -> absl::Status {
    if (avail < n)
      return Malformed(
          base + pos, absl::StrCat("value of type 0x", absl::Hex(type), " runs past its document"));
    return absl::OkStatus();
  };
  auto check_string = [&](size_t at) -> absl::StatusOr<size_t> {
    if (end - at < 4) return Malformed(base + at, "string length runs past its document");
    const uint32_t n = LoadU32(bytes.data() + at);
    if (n < 1 || n > end - at - 4)
      return Malformed(base + at, absl::StrCat("bad string length ", n));
    if (bytes[at + 4 + n - 1] != '\0') return Malformed(base + at, "string is not NUL-terminated");
    if (!IsValidUtf8(bytes.substr(at + 4, n - 1)))
      return Malformed(base + at, "string is not valid UTF-8");
    return 4 + static_cast<size_t>(n);
  };
  auto check_cstring = [&](size_t at) -> absl::StatusOr<size_t> {
    const size_t nul = bytes.find('\0', at);
    if (nul == std::string_view::npos || nul >= end)
      return Malformed(base + at, "unterminated C string");
    if (!IsValidUtf8(bytes.substr(at, nul - at)))
      return Malformed(base + at, "C string is not valid UTF-8");
    return nul - at + 1;
  };
  switch (type) {
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      RETURN_IF_ERROR(need(8));
      return 8;
    case 0x10:
      RETURN_IF_ERROR(need(4));
      return 4;
    case 0x13:
      RETURN_IF_ERROR(need(16));
      return 16;
    case 0x07:
      RETURN_IF_ERROR(need(12));
      return 12;
    case 0x08:
      RETURN_IF_ERROR(need(1));
      if (bytes[pos] != 0 && bytes[pos] != 1)
        return Malformed(base + pos, "bool is neither 0 nor 1");
      return 1;
    case 0x0A:
    case 0xFF:
    case 0x7F:
      return 0;
    case 0x02:
    case 0x0D:
      return check_string(pos);
    case 0x0B: {
      ASSIGN_OR_RETURN(size_t pattern, check_cstring(pos));
      ASSIGN_OR_RETURN(size_t flags, check_cstring(pos + pattern));
      return pattern + flags;
    }
    case 0x05: {
      RETURN_IF_ERROR(need(5));
      const uint32_t n = LoadU32(bytes.data() + pos);
      if (n > avail - 5) return Malformed(base + pos, absl::StrCat("bad binary length ", n));
      return 5 + static_cast<size_t>(n);
    }
    case 0x03:
    case 0x04: {
      RETURN_IF_ERROR(need(5));
      const uint32_t n = LoadU32(bytes.data() + pos);
      if (n < 5 || n > avail)
        return Malformed(base + pos, absl::StrCat("bad embedded document length ", n));
      ASSIGN_OR_RETURN(BsonDocument inner,
                       ParseDocument(bytes.substr(pos, n), base + pos, depth + 1));
      return static_cast<size_t>(n);
    }
    default:
      return Malformed(base + pos, absl::StrCat("unsupported element type 0x", absl::Hex(type)));
  }
}

absl::StatusOr<BsonDocument> ParseDocument(std::string_view bytes, size_t base, int depth) {
  if (depth > 100) return Malformed(base, "documents nested more than 100 deep");
  if (bytes.size() < 5) return Malformed(base, "document shorter than 5 bytes");
  if (LoadU32(bytes.data()) != bytes.size()) {
    return Malformed(base,
                     absl::StrCat("document length ", LoadU32(bytes.data()), " != ", bytes.size()));
  }
  if (bytes.back() != '\0')
    return Malformed(base + bytes.size() - 1, "document does not end in NUL");
  const size_t end = bytes.size() - 1;
  BsonDocument document;
  size_t pos = 4;
  while (pos < end) {
    const uint8_t type = static_cast<uint8_t>(bytes[pos]);
    const size_t nul = bytes.find('\0', pos + 1);
    if (nul >= end) return Malformed(base + pos, "unterminated key");
    std::string key(bytes.substr(pos + 1, nul - pos - 1));
    if (!IsValidUtf8(key)) return Malformed(base + pos, "key is not valid UTF-8");
    ASSIGN_OR_RETURN(size_t size, CheckValue(type, bytes, nul + 1, end, base, depth));
    document.elements.push_back(BsonElement{std::move(key), static_cast<BsonType>(type),
                                            std::string(bytes.substr(nul + 1, size))});
    pos = nul + 1 + size;
  }
  return document;
}

}  // namespace

absl::StatusOr<int64_t> BsonElement::Integer() const {
  if (type == BsonType::kInt32)
    return static_cast<int64_t>(static_cast<int32_t>(LoadU32(value.data())));
  if (type == BsonType::kInt64) return static_cast<int64_t>(LoadU64(value.data()));
  return absl::InvalidArgumentError(absl::StrCat("BSON element `", key, "` is of type 0x",
                                                 absl::Hex(static_cast<uint8_t>(type)),
                                                 ", not an integer"));
}

absl::StatusOr<std::string> BsonElement::Binary() const {
  if (type != BsonType::kBinary) {
    return absl::InvalidArgumentError(absl::StrCat("BSON element `", key, "` is not binary"));
  }
  return value.substr(5);
}

absl::StatusOr<BsonDocument> BsonElement::Document() const {
  if (type != BsonType::kDocument && type != BsonType::kArray) {
    return absl::InvalidArgumentError(
        absl::StrCat("BSON element `", key, "` is not a document or array"));
  }
  return DecodeBson(value);
}

BsonElement BsonElement::Int32(std::string key, int32_t v) {
  BsonElement e{std::move(key), BsonType::kInt32, {}};
  AppendU32(e.value, static_cast<uint32_t>(v));
  return e;
}

BsonElement BsonElement::Int64(std::string key, int64_t v) {
  BsonElement e{std::move(key), BsonType::kInt64, {}};
  AppendU64(e.value, static_cast<uint64_t>(v));
  return e;
}

BsonElement BsonElement::Double(std::string key, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  BsonElement e{std::move(key), BsonType::kDouble, {}};
  AppendU64(e.value, bits);
  return e;
}

BsonElement BsonElement::String(std::string key, std::string_view utf8) {
  BsonElement e{std::move(key), BsonType::kString, {}};
  AppendU32(e.value, static_cast<uint32_t>(utf8.size() + 1));
  e.value.append(utf8);
  e.value.push_back('\0');
  return e;
}

BsonElement BsonElement::Binary(std::string key, std::string_view bytes, uint8_t subtype) {
  BsonElement e{std::move(key), BsonType::kBinary, {}};
  AppendU32(e.value, static_cast<uint32_t>(bytes.size()));
  e.value.push_back(static_cast<char>(subtype));
  e.value.append(bytes);
  return e;
}

BsonElement BsonElement::Bool(std::string key, bool v) {
  return BsonElement{std::move(key), BsonType::kBool, std::string(1, v ? '\1' : '\0')};
}

BsonElement BsonElement::Null(std::string key) {
  return BsonElement{std::move(key), BsonType::kNull, {}};
}

BsonElement BsonElement::Subdocument(std::string key, const BsonDocument& document) {
  return BsonElement{std::move(key), BsonType::kDocument, EncodeBson(document)};
}

BsonElement BsonElement::Array(std::string key, std::vector<BsonElement> items) {
  BsonDocument document;
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].key = std::to_string(i);
    document.elements.push_back(std::move(items[i]));
  }
  return BsonElement{std::move(key), BsonType::kArray, EncodeBson(document)};
}

const BsonElement* BsonDocument::Find(std::string_view key) const {
  for (const BsonElement& e : elements) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

bool BsonDocument::Erase(std::string_view key) {
  const size_t before = elements.size();
  std::erase_if(elements, [&](const BsonElement& e) { return e.key == key; });
  return elements.size() != before;
}

std::string EncodeBson(const BsonDocument& document) {
  std::string out(4, '\0');
  for (const BsonElement& e : document.elements) {
    out.push_back(static_cast<char>(e.type));
    out.append(e.key);
    out.push_back('\0');
    out.append(e.value);
  }
  out.push_back('\0');
  const uint32_t n = static_cast<uint32_t>(out.size());
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
  return out;
}

absl::StatusOr<BsonDocument> DecodeBson(std::string_view bytes) {
  return ParseDocument(bytes, 0, 0);
}

absl::StatusOr<std::vector<BsonDocument>> DecodeBsonSequence(std::string_view bytes) {
  std::vector<BsonDocument> documents;
  size_t pos = 0;
  while (pos < bytes.size()) {
    if (bytes.size() - pos < 4) return Malformed(pos, "document length cut off");
    const uint32_t n = LoadU32(bytes.data() + pos);
    if (n < 5 || n > bytes.size() - pos)
      return Malformed(pos, absl::StrCat("bad document length ", n));
    ASSIGN_OR_RETURN(BsonDocument document, ParseDocument(bytes.substr(pos, n), pos, 0));
    documents.push_back(std::move(document));
    pos += n;
  }
  return documents;
}

absl::StatusOr<BsonFileReader> BsonFileReader::Open(const std::string& path) {
  BsonFileReader reader(path);
  reader.in_.open(path, std::ios::binary);
  if (!reader.in_) return absl::NotFoundError(absl::StrCat("cannot open BSON file ", path));
  return reader;
}

absl::StatusOr<std::optional<BsonDocument>> BsonFileReader::Next() {
  char head[4];
  in_.read(head, 4);
  const std::streamsize got = in_.gcount();
  if (got == 0) return std::nullopt;
  auto error = [&](std::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(path_, ": ", std::string(what)));
  };
  if (got < 4) return error(absl::StrCat("document length cut off at byte ", offset_));
  const uint32_t n = LoadU32(head);
  if (n < 5 || n > 0x7FFFFFFF)
    return error(absl::StrCat("bad document length ", n, " at byte ", offset_));
  // Read as the bytes arrive, a MiB at a time: a length that the file does
  // not hold (up to 2 GiB from 4 bytes) must not cost its memory first.
  std::string bytes(head, 4);
  for (uint32_t left = n - 4; left > 0;) {
    const uint32_t chunk = std::min<uint32_t>(left, uint32_t{1} << 20);
    const size_t at = bytes.size();
    bytes.resize(at + chunk);
    in_.read(bytes.data() + at, chunk);
    if (static_cast<uint32_t>(in_.gcount()) != chunk) {
      return error(absl::StrCat("document at byte ", offset_, " is cut off"));
    }
    left -= chunk;
  }
  absl::StatusOr<BsonDocument> document = ParseDocument(bytes, offset_, 0);
  if (!document.ok()) return error(std::string(document.status().message()));
  offset_ += n;
  return std::optional<BsonDocument>(*std::move(document));
}

}  // namespace mlebench
