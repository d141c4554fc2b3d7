#ifndef MLEBENCH_PYCOMPAT_PYTHON_JSON_H_
#define MLEBENCH_PYCOMPAT_PYTHON_JSON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// JSON read and written exactly as Python's `json` module does it, for
// preparers whose upstream code does `json.load` and `json.dump` (which
// protobuf's JSON support cannot reproduce: it loses key order, integer vs
// float and integers beyond 2**53).
//
// A value keeps what Python's objects keep: object members in dict order,
// integers of any size (as their decimal digits), floats as doubles, strings
// as text. Strings are UTF-8; a lone surrogate, which Python's str can hold
// (json.loads('"\ud800"')), is stored as its 3-byte generalised UTF-8
// sequence (ED A0 80 for U+D800, as in WTF-8), so that it dumps back as
// Python does.

struct JsonMember;

struct JsonValue {
  enum class Type { kNull, kBool, kInt, kFloat, kString, kArray, kObject };

  Type type = Type::kNull;
  bool boolean = false;  // kBool
  // kInt: Python's str(int): an optional '-' and digits without leading
  // zeros ("0", "-12", "123456789012345678901234567890").
  // kString: the string (see above).
  std::string text;
  double number = 0;                // kFloat (NaN and infinities allowed)
  std::vector<JsonValue> items;     // kArray
  std::vector<JsonMember> members;  // kObject: unique keys, in insertion order

  static JsonValue Null();
  static JsonValue Bool(bool value);
  static JsonValue Int(int64_t value);
  static JsonValue Float(double value);
  static JsonValue String(std::string value);
  static JsonValue Array(std::vector<JsonValue> items);
  static JsonValue Array();  // empty
  static JsonValue Object();

  bool is_null() const { return type == Type::kNull; }
  bool is_object() const { return type == Type::kObject; }
  bool is_array() const { return type == Type::kArray; }

  // For objects: the value of `key`, or nullptr.
  const JsonValue* Find(std::string_view key) const;
  // For objects: Python's `d[key] = value` (an existing key keeps its place).
  void Set(std::string key, JsonValue value);
  // For kInt: the value if it fits in int64_t.
  std::optional<int64_t> AsInt64() const;

  friend bool operator==(const JsonValue& a, const JsonValue& b);
};

struct JsonMember {
  std::string key;
  JsonValue value;

  friend bool operator==(const JsonMember& a, const JsonMember& b) {
    return a.key == b.key && a.value == b.value;
  }
};

// Defined here, where JsonMember is complete (so is Array() rather than a
// default argument `= {}`): inside JsonValue they would need its destructor,
// and with it ~vector<JsonMember>, which clang (the fuzz targets' compiler)
// refuses while JsonMember is incomplete.
inline JsonValue JsonValue::Null() { return JsonValue(); }
inline JsonValue JsonValue::Array() { return Array(std::vector<JsonValue>()); }

// Python's `json.loads(data.decode("utf-8"))` (what `json.load(open(path))`
// does on a UTF-8 system) with default options:
//  - whitespace is ' ', '\t', '\n', '\r'; one value, then only whitespace;
//  - numbers match -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?: with a
//    fraction or exponent they are floats (correctly rounded; "1e400" is
//    inf), otherwise ints (more than 4300 digits is an error, as Python's
//    int-string conversion limit makes it); NaN, Infinity and -Infinity are
//    accepted;
//  - strings may not hold control characters below U+0020; the escapes are
//    \" \\ \/ \b \f \n \r \t and \uXXXX, where a high surrogate escape directly
//    followed by a low one combines into one character and any other
//    surrogate stays alone;
//  - a repeated object key keeps its first position and takes the last value.
// Errors are InvalidArgumentError in Python's words with its position
// ("Expecting ',' delimiter: line 1 column 5 (char 4)"; columns count
// characters): invalid UTF-8, a leading byte-order mark, any syntax error,
// and nesting deeper than `kMaxJsonDepth` arrays and objects (where Python
// raises RecursionError, at a depth that depends on its stack).
inline constexpr int kMaxJsonDepth = 900;
absl::StatusOr<JsonValue> ParseJson(std::string_view data);

// Python's `json.dumps(value, indent=indent)` with its other defaults
// (ensure_ascii, allow_nan): with an indent, items on their own lines
// indented by `indent` spaces per level and "," / ": " separators; without,
// one line with ", " and ": ". Empty arrays and objects are "[]" and "{}".
// Floats are repr() (NaN, Infinity, -Infinity for the special values),
// strings escape '"', '\\', \b \f \n \r \t, every other character below
// U+0020 or above U+007E as \u00XX / \uXXXX (lowercase hex), characters
// beyond U+FFFF as surrogate pairs. No trailing newline (json.dump writes the
// same text to a file). A negative indent counts as 0, as in Python. A
// string that is not valid (generalised) UTF-8, or
// an int whose text is not canonical, is InvalidArgumentError.
absl::StatusOr<std::string> DumpJson(const JsonValue& value,
                                     std::optional<int> indent = std::nullopt);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_JSON_H_
