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

#include "base/python_float.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_unicode.h"

namespace mlebench {
namespace {

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
  // The digits, read as an integer while 19 fit, give Clinger's fast path.
  size_t i = 0;
  size_t digits = 0, fraction_digits = 0;
  uint64_t w = 0;
  while (i < body.size() && IsDigit(body[i])) {
    if (digits < 19) w = w * 10 + static_cast<unsigned>(body[i] - '0');
    ++i, ++digits;
  }
  if (i < body.size() && body[i] == '.') {
    ++i;
    while (i < body.size() && IsDigit(body[i])) {
      if (digits < 19) w = w * 10 + static_cast<unsigned>(body[i] - '0');
      ++i, ++digits, ++fraction_digits;
    }
  }
  if (digits == 0) return std::nullopt;
  const bool has_exponent = i < body.size() && (body[i] == 'e' || body[i] == 'E');
  if (has_exponent) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < body.size() && IsDigit(body[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return std::nullopt;
  }
  if (i != body.size()) return std::nullopt;
  // Most numbers written by programs: no exponent, every digit in w, which is
  // at most 2**53, and at most 22 after the point. w and 10**k are then exact
  // doubles, and their one correctly rounded quotient is the correctly
  // rounded value.
  if (!has_exponent && digits <= 19 && w <= (uint64_t{1} << 53) && fraction_digits <= 22) {
    static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const double value = static_cast<double>(w) / kPowersOfTen[fraction_digits];
    return negative ? -value : value;
  }
  // Correctly rounded, like Python's dtoa, with +-inf on overflow, which
  // Python also returns.
  return DecimalTextToDouble(s);
}

}  // namespace

std::optional<double> PythonFloatFromString(std::string_view text) {
  // Text of digits, signs, points and e/E only (most numbers in a file):
  // the mapping to ASCII, the underscores and the strip below change
  // nothing, so it goes straight to the parse. Half the cost of a number in
  // siim-covid19-detection's PredictionStrings was building those copies.
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return IsDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
      })) {
    return ParseAsciiFloat(text);
  }
  std::optional<std::string> ascii = PythonDecimalAndSpaceToAscii(text);
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
