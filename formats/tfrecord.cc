#include "formats/tfrecord.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

constexpr std::array<uint32_t, 256> MakeCrcTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78u : 0u);
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

void AppendLittleEndian(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint64_t LoadLittleEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    value |= uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return value;
}

// Protocol buffer wire format.
constexpr int kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4,
              kFixed32 = 5;

void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void AppendLengthDelimited(std::string& out, int field, std::string_view bytes) {
  AppendVarint(out, static_cast<uint64_t>(field) << 3 | kLengthDelimited);
  AppendVarint(out, bytes.size());
  out.append(bytes);
}

absl::Status BadExample(std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("not a valid tf.train.Example: ", std::string(why)));
}

// One field of a message: its number, wire type and (for length-delimited
// fields) its bytes.
struct WireField {
  uint32_t number;
  int type;
  std::string_view bytes;
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool done() const { return pos_ == bytes_.size(); }

  // The next field of the message; a group (wire type 3) is skipped whole,
  // and an end-group tag outside one is an error, as protobuf parses.
  absl::StatusOr<WireField> Next() {
    ASSIGN_OR_RETURN(WireField field, NextTag());
    if (field.type == kEndGroup) return BadExample("unmatched end-group tag");
    return field;
  }

  absl::StatusOr<uint64_t> Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos_ >= bytes_.size()) return BadExample("truncated varint");
      const uint8_t byte = static_cast<uint8_t>(bytes_[pos_++]);
      value |= uint64_t{byte & 0x7Fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return BadExample("varint longer than 10 bytes");
  }

 private:
  absl::StatusOr<WireField> NextTag(int depth = 0) {
    if (depth > 100) return BadExample("groups nested too deeply");
    ASSIGN_OR_RETURN(uint64_t key, Varint());
    WireField field{static_cast<uint32_t>(key >> 3), static_cast<int>(key & 7), {}};
    if (field.number == 0 || (key >> 3) > 0x1FFFFFFF) return BadExample("invalid field number");
    switch (field.type) {
      case kVarint:
        if (absl::StatusOr<uint64_t> v = Varint(); !v.ok()) return v.status();
        break;
      case kFixed64:
      case kFixed32: {
        const size_t size = field.type == kFixed64 ? 8 : 4;
        if (bytes_.size() - pos_ < size) return BadExample("truncated fixed-width field");
        pos_ += size;
        break;
      }
      case kLengthDelimited: {
        ASSIGN_OR_RETURN(uint64_t length, Varint());
        if (length > bytes_.size() - pos_) return BadExample("length runs past the end");
        field.bytes = bytes_.substr(pos_, length);
        pos_ += length;
        break;
      }
      case kStartGroup:
        while (true) {
          if (done()) return BadExample("unterminated group");
          ASSIGN_OR_RETURN(WireField inner, NextTag(depth + 1));
          if (inner.type == kEndGroup) {
            if (inner.number != field.number) return BadExample("mismatched end-group tag");
            break;
          }
        }
        break;
      case kEndGroup:
        break;
      default:
        return BadExample(absl::StrCat("invalid wire type ", field.type));
    }
    return field;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
};

// Checks a BytesList (kind 1), FloatList (2) or Int64List (3) as protobuf
// parses it and collects a BytesList's values. Field 1 is the values (packed
// or not for numbers); fields of an unexpected wire type are unknown fields.
absl::Status ReadList(std::string_view bytes, int kind, std::vector<std::string_view>& values) {
  WireReader reader(bytes);
  while (!reader.done()) {
    ASSIGN_OR_RETURN(WireField field, reader.Next());
    if (field.number != 1 || field.type != kLengthDelimited) continue;
    if (kind == 1) {
      values.push_back(field.bytes);
    } else if (kind == 2) {
      if (field.bytes.size() % 4 != 0) return BadExample("packed floats of a partial size");
    } else {
      WireReader packed(field.bytes);
      while (!packed.done()) {
        if (absl::StatusOr<uint64_t> v = packed.Varint(); !v.ok()) return v.status();
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

uint32_t Crc32c(std::string_view bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (char c : bytes) crc = kCrcTable[(crc ^ static_cast<uint8_t>(c)) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t MaskedCrc32c(std::string_view bytes) {
  const uint32_t crc = Crc32c(bytes);
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

std::string WriteTfRecords(const std::vector<std::string>& records) {
  std::string out;
  for (const std::string& record : records) {
    std::string length;
    AppendLittleEndian(length, record.size(), 8);
    out += length;
    AppendLittleEndian(out, MaskedCrc32c(length), 4);
    out += record;
    AppendLittleEndian(out, MaskedCrc32c(record), 4);
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> ReadTfRecords(std::string_view bytes) {
  std::vector<std::string> records;
  size_t pos = 0;
  while (pos < bytes.size()) {
    const std::string where = absl::StrCat("TFRecord ", records.size(), " at offset ", pos);
    if (bytes.size() - pos < 12) {
      return absl::DataLossError(absl::StrCat("truncated record header in ", where));
    }
    const std::string_view length_bytes = bytes.substr(pos, 8);
    if (LoadLittleEndian(bytes.substr(pos + 8, 4)) != MaskedCrc32c(length_bytes)) {
      return absl::DataLossError(absl::StrCat("corrupted record length in ", where));
    }
    const uint64_t length = LoadLittleEndian(length_bytes);
    if (length > bytes.size() - pos - 12 || bytes.size() - pos - 12 - length < 4) {
      return absl::DataLossError(absl::StrCat("truncated record data in ", where));
    }
    const std::string_view payload = bytes.substr(pos + 12, length);
    if (LoadLittleEndian(bytes.substr(pos + 12 + length, 4)) != MaskedCrc32c(payload)) {
      return absl::DataLossError(absl::StrCat("corrupted record data in ", where));
    }
    records.emplace_back(payload);
    pos += 12 + length + 4;
  }
  return records;
}

std::string SerializeExample(const std::map<std::string, ExampleFeature>& features) {
  std::string feature_map;
  for (const auto& [name, values] : features) {
    std::string list;
    int kind = 0;
    if (const auto* bytes = std::get_if<std::vector<std::string>>(&values)) {
      kind = 1;
      for (const std::string& value : *bytes) AppendLengthDelimited(list, 1, value);
    } else if (const auto* floats = std::get_if<std::vector<float>>(&values)) {
      kind = 2;
      std::string packed;
      for (float value : *floats) {
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        AppendLittleEndian(packed, bits, 4);
      }
      if (!floats->empty()) AppendLengthDelimited(list, 1, packed);
    } else {
      kind = 3;
      std::string packed;
      for (int64_t value : std::get<std::vector<int64_t>>(values)) {
        AppendVarint(packed, static_cast<uint64_t>(value));
      }
      if (!packed.empty()) AppendLengthDelimited(list, 1, packed);
    }
    std::string feature;
    AppendLengthDelimited(feature, kind, list);
    std::string entry;
    AppendLengthDelimited(entry, 1, name);
    AppendLengthDelimited(entry, 2, feature);
    AppendLengthDelimited(feature_map, 1, entry);
  }
  std::string example;
  AppendLengthDelimited(example, 1, feature_map);
  return example;
}

absl::StatusOr<std::string> ExampleFirstBytesValue(std::string_view record, std::string_view name) {
  // The Feature of `name`: the last map entry with that key wins, and a
  // repeated singular message field merges, as protobuf parses them.
  std::optional<int> kind;  // the oneof member set last
  std::vector<std::string_view> values;
  WireReader example(record);
  while (!example.done()) {
    ASSIGN_OR_RETURN(WireField field, example.Next());
    if (field.number != 1 || field.type != kLengthDelimited) continue;
    WireReader features(field.bytes);
    while (!features.done()) {
      ASSIGN_OR_RETURN(WireField entry_field, features.Next());
      if (entry_field.number != 1 || entry_field.type != kLengthDelimited) continue;
      std::string_view key;
      std::vector<std::string_view> feature_fields;
      WireReader entry(entry_field.bytes);
      while (!entry.done()) {
        ASSIGN_OR_RETURN(WireField part, entry.Next());
        if (part.type != kLengthDelimited) continue;
        if (part.number == 1) key = part.bytes;
        if (part.number == 2) feature_fields.push_back(part.bytes);
      }
      if (!IsValidUtf8(key)) return BadExample("a feature name is not valid UTF-8");
      std::optional<int> entry_kind;
      std::vector<std::string_view> entry_values;
      for (std::string_view feature_bytes : feature_fields) {
        WireReader feature(feature_bytes);
        while (!feature.done()) {
          ASSIGN_OR_RETURN(WireField list, feature.Next());
          if (list.number < 1 || list.number > 3 || list.type != kLengthDelimited) continue;
          // Setting another member of the oneof clears the previous one.
          if (entry_kind != static_cast<int>(list.number)) entry_values.clear();
          entry_kind = static_cast<int>(list.number);
          RETURN_IF_ERROR(ReadList(list.bytes, *entry_kind, entry_values));
        }
      }
      if (key == name) {
        kind = entry_kind;
        values = std::move(entry_values);
      }
    }
  }
  if (kind != 1 || values.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "IndexError: the Example has no bytes value for feature '", std::string(name), "'"));
  }
  if (!IsValidUtf8(values.front())) {
    return absl::InvalidArgumentError(
        absl::StrCat("UnicodeDecodeError: feature '", std::string(name), "' is not valid UTF-8"));
  }
  return std::string(values.front());
}

}  // namespace mlebench
