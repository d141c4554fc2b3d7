#include "pycompat/object_float_cast.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <variant>

#include "base/utf8.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

// The first code point ("zero") of each run of ten Unicode decimal digits
// (category Nd) outside ASCII, from Python 3.11's unicodedata (Unicode 14):
// [c for c in range(0x110000) if unicodedata.decimal(chr(c), None) == 0].
// object_float_cast_python_diff_test checks every one against float().
constexpr std::array<char32_t, 65> kDigitZeros = {
    0x660,   0x6F0,   0x7C0,   0x966,   0x9E6,   0xA66,   0xAE6,   0xB66,   0xBE6,   0xC66,
    0xCE6,   0xD66,   0xDE6,   0xE50,   0xED0,   0xF20,   0x1040,  0x1090,  0x17E0,  0x1810,
    0x1946,  0x19D0,  0x1A80,  0x1A90,  0x1B50,  0x1BB0,  0x1C40,  0x1C50,  0xA620,  0xA8D0,
    0xA900,  0xA9D0,  0xA9F0,  0xAA50,  0xABF0,  0xFF10,  0x104A0, 0x10D30, 0x11066, 0x110F0,
    0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950,
    0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50, 0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC,
    0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0};

// Non-ASCII code points for which str.isspace() is true.
bool IsNonAsciiSpace(char32_t c) {
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

// The digit value of a non-ASCII decimal digit, or -1.
int NonAsciiDigit(char32_t c) {
  auto it = std::upper_bound(kDigitZeros.begin(), kDigitZeros.end(), c);
  if (it == kDigitZeros.begin()) return -1;
  const char32_t zero = *(it - 1);
  return c - zero < 10 ? static_cast<int>(c - zero) : -1;
}

// CPython's _PyUnicode_TransformDecimalAndSpaceToASCII: nullopt where it
// would write '?' (which no number contains) or the text is not UTF-8.
std::optional<std::string> ToAsciiDigitsAndSpaces(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    std::optional<char32_t> c = DecodeUtf8At(text, i);
    if (!c.has_value()) return std::nullopt;
    if (*c < 127) {
      out.push_back(static_cast<char>(*c));
    } else if (IsNonAsciiSpace(*c)) {
      out.push_back(' ');
    } else if (int digit = NonAsciiDigit(*c); digit >= 0) {
      out.push_back(static_cast<char>('0' + digit));
    } else {
      return std::nullopt;
    }
  }
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// CPython's _Py_string_to_number_with_underscores: drops underscores that sit
// between two digits; nullopt if any other underscore appears.
std::optional<std::string> RemoveUnderscores(const std::string& s) {
  if (s.find('_') == std::string::npos) return s;
  std::string out;
  char prev = '\0';
  for (char c : s) {
    if (c == '_') {
      if (!IsDigit(prev)) return std::nullopt;
    } else {
      if (prev == '_' && !IsDigit(c)) return std::nullopt;
      out.push_back(c);
    }
    prev = c;
  }
  if (prev == '_') return std::nullopt;
  return out;
}

bool IsPythonAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool EqualsIgnoringCase(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != lower[i]) return false;
  }
  return true;
}

// _PyOS_ascii_strtod over the whole of `s` (already stripped).
std::optional<double> ParseAsciiFloat(std::string_view s) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (EqualsIgnoringCase(body, "inf") || EqualsIgnoringCase(body, "infinity")) {
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  if (EqualsIgnoringCase(body, "nan")) {
    return negative ? -std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::quiet_NaN();
  }
  // digits* ('.' digits*)? with at least one digit, then (e|E) sign? digits+.
  size_t i = 0;
  size_t digits = 0;
  while (i < body.size() && IsDigit(body[i])) ++i, ++digits;
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && IsDigit(body[i])) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < body.size() && IsDigit(body[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  // glibc's strtod is correctly rounded, like Python's dtoa, and gives +-inf
  // (ERANGE) on overflow, which Python also returns.
  return std::strtod(std::string(s).c_str(), nullptr);
}

}  // namespace

std::optional<double> PythonFloatFromString(std::string_view text) {
  std::optional<std::string> ascii = ToAsciiDigitsAndSpaces(text);
  if (!ascii.has_value()) return std::nullopt;
  std::optional<std::string> plain = RemoveUnderscores(*ascii);
  if (!plain.has_value()) return std::nullopt;
  std::string_view s = *plain;
  while (!s.empty() && IsPythonAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsPythonAsciiSpace(s.back())) s.remove_suffix(1);
  return ParseAsciiFloat(s);
}

std::optional<double> ObjectToFloat64(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return PythonFloatFromString(*s);
  return NumericValue(cell);
}

}  // namespace mlebench
