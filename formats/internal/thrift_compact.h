// Thrift's compact protocol as Parquet's footer and page headers use it: a
// generic reader into a value tree and a writer. Header-only, for
// formats/parquet_{reader,writer}.cc; not for other callers.
#ifndef MLEBENCH_FORMATS_INTERNAL_THRIFT_COMPACT_H_
#define MLEBENCH_FORMATS_INTERNAL_THRIFT_COMPACT_H_

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace mlebench::parquet_internal {

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

inline absl::Status Corrupt(std::string_view what) {
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
inline std::optional<int64_t> IntField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  if (f == nullptr || f->type == kTStruct || f->type == kTList || f->type == kTBinary ||
      f->type == kTDouble || f->type == kTMap || f->type == kTSet) {
    return std::nullopt;
  }
  return f->integer;
}

inline absl::StatusOr<int64_t> RequiredInt(const ThriftValue& s, int16_t id, std::string_view what) {
  std::optional<int64_t> v = IntField(s, id);
  if (!v.has_value()) return Corrupt(absl::StrCat("missing ", std::string(what)));
  return *v;
}

inline const ThriftValue* StructField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  return f != nullptr && f->type == kTStruct ? f : nullptr;
}

inline const ThriftValue* ListField(const ThriftValue& s, int16_t id) {
  const ThriftValue* f = s.Field(id);
  return f != nullptr && (f->type == kTList || f->type == kTSet) ? f : nullptr;
}

}  // namespace mlebench::parquet_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_THRIFT_COMPACT_H_
