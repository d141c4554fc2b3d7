#include "pycompat/python_json.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/json_text.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

// Python's limit on converting between int and decimal text
// (sys.get_int_max_str_digits()).
constexpr size_t kMaxIntDigits = 4300;

// JSON's one-letter escapes and the characters they stand for.
constexpr std::string_view kEscapeLetters = "\"\\/bfnrt";
constexpr std::string_view kEscapedChars = "\"\\/\b\f\n\r\t";

bool IsContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Decodes one UTF-8 sequence at data[pos] as base/utf8.h does, but with
// Python's reasons for a failure (its UnicodeDecodeError text); with
// `allow_surrogates`, also the
// 3-byte encodings of U+D800..U+DFFF. Returns the code point and advances
// `pos`, or nullopt (and leaves `pos`) for an invalid sequence; `bad_byte`
// then tells where decoding failed and `reason` why, in Python's words.
std::optional<uint32_t> DecodePythonUtf8(std::string_view data, size_t& pos, bool allow_surrogates,
                                   size_t* bad_byte = nullptr, const char** reason = nullptr) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(data[i]); };
  const unsigned char lead = byte(pos);
  auto fail = [&](size_t at, const char* why) -> std::optional<uint32_t> {
    if (bad_byte != nullptr) *bad_byte = at;
    if (reason != nullptr) *reason = why;
    return std::nullopt;
  };
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  int length;
  uint32_t code;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED && !allow_surrogates) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code = lead & 0x07;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return fail(pos, "invalid start byte");
  }
  for (int i = 1; i < length; ++i) {
    if (pos + i >= data.size()) return fail(pos, "unexpected end of data");
    const unsigned char b = byte(pos + i);
    if (i == 1 ? (b < low || b > high) : !IsContinuation(b)) {
      return fail(pos, "invalid continuation byte");
    }
    code = (code << 6) | (b & 0x3F);
  }
  pos += length;
  return code;
}

class Parser {
 public:
  explicit Parser(std::string_view data) : data_(data) {}

  absl::StatusOr<JsonValue> ParseDocument() {
    if (data_.substr(0, 3) == "\xEF\xBB\xBF") {
      return Error("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    }
    SkipWhitespace();
    absl::StatusOr<JsonValue> value = ParseValue(0);
    if (!value.ok()) return value;
    SkipWhitespace();
    if (pos_ != data_.size()) return Error("Extra data", pos_);
    return value;
  }

 private:
  // Python's JSONDecodeError text: positions count characters, not bytes.
  absl::Status Error(std::string_view message, size_t byte_pos) const {
    size_t chars = 0, line = 1, column = 1;
    for (size_t i = 0; i < byte_pos && i < data_.size(); ++i) {
      const auto b = static_cast<unsigned char>(data_[i]);
      if (IsContinuation(b)) continue;
      ++chars;
      if (b == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return absl::InvalidArgumentError(absl::StrCat(std::string(message), ": line ", line,
                                                   " column ", column, " (char ", chars, ")"));
  }

  bool AtEnd() const { return pos_ >= data_.size(); }
  char Peek() const { return data_[pos_]; }
  bool Consume(std::string_view word) {
    if (data_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  void SkipWhitespace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      ++pos_;
    }
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  absl::StatusOr<JsonValue> ParseValue(int depth) {
    if (AtEnd()) return Error("Expecting value", pos_);
    switch (Peek()) {
      case '"': {
        ++pos_;
        ASSIGN_OR_RETURN(std::string text, ParseString());
        return JsonValue::String(std::move(text));
      }
      case '{':
      case '[':
        if (depth >= kMaxJsonDepth) {
          return Error(absl::StrCat("Nested deeper than ", kMaxJsonDepth,
                                    " arrays and objects (Python: RecursionError)"),
                       pos_);
        }
        return Peek() == '{' ? ParseObject(depth + 1) : ParseArray(depth + 1);
      case 'n':
        if (Consume("null")) return JsonValue::Null();
        break;
      case 't':
        if (Consume("true")) return JsonValue::Bool(true);
        break;
      case 'f':
        if (Consume("false")) return JsonValue::Bool(false);
        break;
      case 'N':
        if (Consume("NaN")) return JsonValue::Float(std::numeric_limits<double>::quiet_NaN());
        break;
      case 'I':
        if (Consume("Infinity")) return JsonValue::Float(std::numeric_limits<double>::infinity());
        break;
      case '-':
        if (Consume("-Infinity")) {
          return JsonValue::Float(-std::numeric_limits<double>::infinity());
        }
        break;
      default:
        break;
    }
    return ParseNumber();
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? at pos_, else "Expecting value".
  absl::StatusOr<JsonValue> ParseNumber() {
    const size_t start = pos_;
    size_t i = pos_;
    if (i < data_.size() && data_[i] == '-') ++i;
    if (i < data_.size() && data_[i] >= '1' && data_[i] <= '9') {
      while (i < data_.size() && IsDigit(data_[i])) ++i;
    } else if (i < data_.size() && data_[i] == '0') {
      ++i;
    } else {
      return Error("Expecting value", start);
    }
    bool is_float = false;
    if (i + 1 < data_.size() && data_[i] == '.' && IsDigit(data_[i + 1])) {
      is_float = true;
      i += 2;
      while (i < data_.size() && IsDigit(data_[i])) ++i;
    }
    if (i < data_.size() && (data_[i] == 'e' || data_[i] == 'E')) {
      size_t j = i + 1;
      if (j < data_.size() && (data_[j] == '+' || data_[j] == '-')) ++j;
      const size_t digits_start = j;
      while (j < data_.size() && IsDigit(data_[j])) ++j;
      if (j > digits_start) {
        is_float = true;
        i = j;
      }
    }
    pos_ = i;
    const std::string literal(data_.substr(start, i - start));
    if (is_float) return JsonValue::Float(DecimalTextToDouble(literal));
    const bool negative = literal[0] == '-';
    const size_t digits = literal.size() - (negative ? 1 : 0);
    if (digits > kMaxIntDigits) {
      return absl::InvalidArgumentError(
          absl::StrCat("Exceeds the limit (", kMaxIntDigits,
                       " digits) for integer string conversion: value has ", digits,
                       " digits (Python's ValueError)"));
    }
    JsonValue value;
    value.type = JsonValue::Type::kInt;
    value.text = literal == "-0" ? "0" : literal;
    return value;
  }

  // The rest of a string whose opening quote is just before pos_.
  absl::StatusOr<std::string> ParseString() {
    const size_t begin = pos_ - 1;
    std::string out;
    while (true) {
      if (AtEnd()) return Error("Unterminated string starting at", begin);
      const auto c = static_cast<unsigned char>(Peek());
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) return Error("Invalid control character at", pos_);
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      const size_t backslash = pos_;
      ++pos_;
      if (AtEnd()) return Error("Unterminated string starting at", begin);
      const char escape = Peek();
      ++pos_;
      if (const size_t k = kEscapeLetters.find(escape); k != std::string_view::npos) {
        out.push_back(kEscapedChars[k]);
        continue;
      }
      if (escape != 'u') return Error("Invalid \\escape", backslash);
      std::optional<uint32_t> code = ReadHex4(pos_);
      // Python wants one more character after the four digits.
      if (!code.has_value() || pos_ + 4 >= data_.size()) {
        return Error("Invalid \\uXXXX escape", backslash + 1);
      }
      pos_ += 4;
      if (*code >= 0xD800 && *code <= 0xDBFF && pos_ + 6 < data_.size() && data_[pos_] == '\\' &&
          data_[pos_ + 1] == 'u') {
        std::optional<uint32_t> low = ReadHex4(pos_ + 2);
        if (!low.has_value()) return Error("Invalid \\uXXXX escape", pos_ + 1);
        if (*low >= 0xDC00 && *low <= 0xDFFF) {
          *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
          pos_ += 6;
        }
      }
      AppendUtf8(*code, out);
    }
  }

  std::optional<uint32_t> ReadHex4(size_t at) const {
    if (at + 4 > data_.size()) return std::nullopt;
    uint32_t value = 0;
    for (size_t i = at; i < at + 4; ++i) {
      const char c = data_[i];
      int digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return std::nullopt;
      }
      value = (value << 4) | static_cast<uint32_t>(digit);
    }
    return value;
  }

  // Generalised UTF-8: surrogates get their 3-byte form.
  absl::StatusOr<JsonValue> ParseObject(int depth) {
    ++pos_;  // '{'
    JsonValue object = JsonValue::Object();
    SkipWhitespace();
    if (!AtEnd() && Peek() == '}') {
      ++pos_;
      return object;
    }
    while (true) {
      if (AtEnd() || Peek() != '"') {
        return Error("Expecting property name enclosed in double quotes", pos_);
      }
      ++pos_;
      ASSIGN_OR_RETURN(std::string key, ParseString());
      SkipWhitespace();
      if (AtEnd() || Peek() != ':') return Error("Expecting ':' delimiter", pos_);
      ++pos_;
      SkipWhitespace();
      absl::StatusOr<JsonValue> value = ParseValue(depth);
      if (!value.ok()) return value;
      object.Set(std::move(key), *std::move(value));
      SkipWhitespace();
      if (!AtEnd() && Peek() == '}') {
        ++pos_;
        return object;
      }
      if (AtEnd() || Peek() != ',') return Error("Expecting ',' delimiter", pos_);
      ++pos_;
      SkipWhitespace();
    }
  }

  absl::StatusOr<JsonValue> ParseArray(int depth) {
    ++pos_;  // '['
    JsonValue array = JsonValue::Array();
    SkipWhitespace();
    if (!AtEnd() && Peek() == ']') {
      ++pos_;
      return array;
    }
    while (true) {
      absl::StatusOr<JsonValue> value = ParseValue(depth);
      if (!value.ok()) return value;
      array.items.push_back(*std::move(value));
      SkipWhitespace();
      if (!AtEnd() && Peek() == ']') {
        ++pos_;
        return array;
      }
      if (AtEnd() || Peek() != ',') return Error("Expecting ',' delimiter", pos_);
      ++pos_;
      SkipWhitespace();
    }
  }

  std::string_view data_;
  size_t pos_ = 0;
};

// Python's UTF-8 decoding of the whole input, before any parsing.
absl::Status CheckUtf8(std::string_view data) {
  size_t pos = 0;
  while (pos < data.size()) {
    size_t bad = 0;
    const char* reason = "";
    if (!DecodePythonUtf8(data, pos, /*allow_surrogates=*/false, &bad, &reason).has_value()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("'utf-8' codec can't decode byte 0x%02x in position %d: %s",
                          static_cast<unsigned char>(data[bad]), bad, reason));
    }
  }
  return absl::OkStatus();
}

bool IsCanonicalInt(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
  if (digits.empty() || digits.size() > kMaxIntDigits) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  if (digits.size() > 1 && digits[0] == '0') return false;
  return !(text[0] == '-' && digits == "0");
}

class Dumper {
 public:
  explicit Dumper(std::optional<int> indent) : indent_(indent) {}

  absl::Status Append(const JsonValue& value, int level, std::string& out) {
    switch (value.type) {
      case JsonValue::Type::kNull:
        out += "null";
        return absl::OkStatus();
      case JsonValue::Type::kBool:
        out += value.boolean ? "true" : "false";
        return absl::OkStatus();
      case JsonValue::Type::kInt:
        if (!IsCanonicalInt(value.text)) {
          return absl::InvalidArgumentError(
              absl::StrCat("not a JSON int: '", value.text.substr(0, 40), "'"));
        }
        out += value.text;
        return absl::OkStatus();
      case JsonValue::Type::kFloat:
        if (std::isnan(value.number)) {
          out += "NaN";
        } else if (std::isinf(value.number)) {
          out += value.number > 0 ? "Infinity" : "-Infinity";
        } else {
          out += FormatPythonFloat(value.number);
        }
        return absl::OkStatus();
      case JsonValue::Type::kString:
        return AppendJsonString(value.text, out, InvalidUtf8::kReject);
      case JsonValue::Type::kArray:
        if (value.items.empty()) {
          out += "[]";
          return absl::OkStatus();
        }
        out.push_back('[');
        for (size_t i = 0; i < value.items.size(); ++i) {
          Separate(i == 0, level + 1, out);
          RETURN_IF_ERROR(Append(value.items[i], level + 1, out));
        }
        Close(level, out);
        out.push_back(']');
        return absl::OkStatus();
      case JsonValue::Type::kObject:
        if (value.members.empty()) {
          out += "{}";
          return absl::OkStatus();
        }
        out.push_back('{');
        for (size_t i = 0; i < value.members.size(); ++i) {
          Separate(i == 0, level + 1, out);
          RETURN_IF_ERROR(AppendJsonString(value.members[i].key, out, InvalidUtf8::kReject));
          out += ": ";
          RETURN_IF_ERROR(Append(value.members[i].value, level + 1, out));
        }
        Close(level, out);
        out.push_back('}');
        return absl::OkStatus();
    }
    return absl::InternalError("unknown JSON value type");
  }

 private:
  // What comes before an item: "," unless it is the first, then a newline
  // and indentation, or (without indent) a space after the comma.
  void Separate(bool first, int level, std::string& out) const {
    if (indent_.has_value()) {
      if (!first) out.push_back(',');
      out.push_back('\n');
      out.append(static_cast<size_t>(*indent_) * level, ' ');
    } else if (!first) {
      out += ", ";
    }
  }
  void Close(int level, std::string& out) const {
    if (!indent_.has_value()) return;
    out.push_back('\n');
    out.append(static_cast<size_t>(*indent_) * level, ' ');
  }

  std::optional<int> indent_;
};

}  // namespace

JsonValue JsonValue::Bool(bool value) {
  JsonValue v;
  v.type = Type::kBool;
  v.boolean = value;
  return v;
}

JsonValue JsonValue::Int(int64_t value) {
  JsonValue v;
  v.type = Type::kInt;
  v.text = absl::StrCat(value);
  return v;
}

JsonValue JsonValue::Float(double value) {
  JsonValue v;
  v.type = Type::kFloat;
  v.number = value;
  return v;
}

JsonValue JsonValue::String(std::string value) {
  JsonValue v;
  v.type = Type::kString;
  v.text = std::move(value);
  return v;
}

JsonValue JsonValue::Array(std::vector<JsonValue> items) {
  JsonValue v;
  v.type = Type::kArray;
  v.items = std::move(items);
  return v;
}

JsonValue JsonValue::Object() {
  JsonValue v;
  v.type = Type::kObject;
  return v;
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const JsonMember& member : members) {
    if (member.key == key) return &member.value;
  }
  return nullptr;
}

void JsonValue::Set(std::string key, JsonValue value) {
  for (JsonMember& member : members) {
    if (member.key == key) {
      member.value = std::move(value);
      return;
    }
  }
  members.push_back(JsonMember{std::move(key), std::move(value)});
}

std::optional<int64_t> JsonValue::AsInt64() const {
  if (type != Type::kInt || text.empty() || text.size() > 20) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

bool operator==(const JsonValue& a, const JsonValue& b) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case JsonValue::Type::kNull:
      return true;
    case JsonValue::Type::kBool:
      return a.boolean == b.boolean;
    case JsonValue::Type::kInt:
    case JsonValue::Type::kString:
      return a.text == b.text;
    case JsonValue::Type::kFloat:
      // As json.dumps would tell them apart: NaN is NaN, -0.0 is not 0.0.
      if (std::isnan(a.number) || std::isnan(b.number)) {
        return std::isnan(a.number) && std::isnan(b.number);
      }
      return a.number == b.number && std::signbit(a.number) == std::signbit(b.number);
    case JsonValue::Type::kArray:
      return a.items == b.items;
    case JsonValue::Type::kObject:
      return a.members == b.members;
  }
  return false;
}

absl::StatusOr<JsonValue> ParseJson(std::string_view data) {
  RETURN_IF_ERROR(CheckUtf8(data));
  return Parser(data).ParseDocument();
}

absl::StatusOr<std::string> DumpJson(const JsonValue& value, std::optional<int> indent) {
  // Python indents by ' ' * indent, which is empty for a negative indent.
  if (indent.has_value() && *indent < 0) indent = 0;
  std::string out;
  RETURN_IF_ERROR(Dumper(indent).Append(value, 0, out));
  return out;
}

}  // namespace mlebench
