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

namespace mlebench {
namespace {

bool IsPythonSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

}  // namespace

absl::StatusOr<int64_t> PythonIntFromString(std::string_view text) {
  const auto invalid = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid literal for int() with base 10: '", std::string(text), "'"));
  };
  std::string_view s = text;
  while (!s.empty() && IsPythonSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsPythonSpace(s.back())) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return invalid();
  // The magnitude, exact up to 2**63 (INT64_MIN's); beyond that only the
  // syntax is still checked.
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  uint64_t magnitude = 0;
  bool too_large = false;
  bool previous_digit = false;
  for (char c : s) {
    if (c == '_') {
      if (!previous_digit) return invalid();
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return invalid();
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (kLimit - digit) / 10) too_large = true;
    if (!too_large) magnitude = magnitude * 10 + digit;
    previous_digit = true;
  }
  if (!previous_digit) return invalid();  // a trailing underscore
  if (too_large || (!negative && magnitude == kLimit)) {
    return absl::OutOfRangeError(
        absl::StrCat("int() of '", std::string(text), "' is outside the 64-bit range"));
  }
  if (negative) return static_cast<int64_t>(uint64_t{0} - magnitude);
  return static_cast<int64_t>(magnitude);
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

}  // namespace mlebench
