#include "pycompat/python_int.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "pycompat/python_unicode.h"

namespace mlebench {
namespace {

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// An integer literal as int() reads it: sign and magnitude, which is exact
// below 2**64 (`beyond_uint64` otherwise).
struct ParsedInt {
  bool negative = false;
  uint64_t magnitude = 0;
  bool beyond_uint64 = false;
};

// nullopt where int() raises ValueError.
std::optional<ParsedInt> ParsePythonInt(std::string_view text) {
  const std::optional<std::string> ascii = PythonDecimalAndSpaceToAscii(text);
  if (!ascii.has_value()) return std::nullopt;
  std::string_view s = *ascii;
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  ParsedInt parsed;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    parsed.negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  bool previous_digit = false;
  for (char c : s) {
    if (c == '_') {
      if (!previous_digit) return std::nullopt;
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (parsed.magnitude > (UINT64_MAX - digit) / 10) parsed.beyond_uint64 = true;
    if (!parsed.beyond_uint64) parsed.magnitude = parsed.magnitude * 10 + digit;
    previous_digit = true;
  }
  if (!previous_digit) return std::nullopt;  // a trailing underscore
  return parsed;
}

constexpr uint64_t kTwoTo63 = uint64_t{1} << 63;

}  // namespace

absl::StatusOr<int64_t> PythonIntFromString(std::string_view text) {
  const std::optional<ParsedInt> parsed = ParsePythonInt(text);
  if (!parsed.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid literal for int() with base 10: '", std::string(text), "'"));
  }
  if (parsed->beyond_uint64 || parsed->magnitude > kTwoTo63 ||
      (!parsed->negative && parsed->magnitude == kTwoTo63)) {
    return absl::OutOfRangeError(
        absl::StrCat("int() of '", std::string(text), "' is outside the 64-bit range"));
  }
  if (parsed->negative) return static_cast<int64_t>(uint64_t{0} - parsed->magnitude);
  return static_cast<int64_t>(parsed->magnitude);
}

std::optional<int64_t> PythonIntOfCell(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return std::nullopt;  // int(nan)
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? 1 : 0;
  if (const auto* i = std::get_if<int64_t>(&cell)) return *i;
  if (const auto* d = std::get_if<double>(&cell)) {
    if (!std::isfinite(*d)) return std::nullopt;
    const double truncated = std::trunc(*d);
    // [-2**63, 2**63) is exactly representable at its ends.
    if (truncated < -9223372036854775808.0 || truncated >= 9223372036854775808.0) {
      return std::nullopt;
    }
    return static_cast<int64_t>(truncated);
  }
  absl::StatusOr<int64_t> value = PythonIntFromString(std::get<std::string>(cell));
  if (!value.ok()) return std::nullopt;
  return *value;
}

std::optional<uint64_t> PythonIntOfCellAboveInt64(const Cell& cell) {
  if (const auto* d = std::get_if<double>(&cell)) {
    const double truncated = std::trunc(*d);  // NaN and infinities fail both tests
    if (truncated >= 9223372036854775808.0 && truncated < 18446744073709551616.0) {
      return static_cast<uint64_t>(truncated);
    }
    return std::nullopt;
  }
  const auto* text = std::get_if<std::string>(&cell);
  if (text == nullptr) return std::nullopt;
  const std::optional<ParsedInt> parsed = ParsePythonInt(*text);
  if (!parsed.has_value() || parsed->negative || parsed->beyond_uint64 ||
      parsed->magnitude < kTwoTo63) {
    return std::nullopt;
  }
  return parsed->magnitude;
}

}  // namespace mlebench
