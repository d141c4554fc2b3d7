// Value parsing of the CSV reader (base/csv.cc), following pandas' C parser:
// NA tokens, integers, floats (xstrtod's rounding), booleans. Header-only so
// that the reader's per-field calls stay inlined; not for other callers.
#ifndef MLEBENCH_BASE_INTERNAL_CSV_VALUES_H_
#define MLEBENCH_BASE_INTERNAL_CSV_VALUES_H_

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace mlebench::csv_internal {

// pandas 2.x's default NA tokens (STR_NA_VALUES); "None" is new in 2.0.
inline bool IsNaToken(std::string_view t) {
  if (t.empty()) return true;
  // Numbers are most tokens: reject them on their first bytes.
  if (t.size() > 8) return false;
  switch (t[0]) {
    case '#':
    case '<':
    case 'N':
    case 'n':
      break;
    case '1':  // "1.#IND", "1.#QNAN"
      if (t.size() < 6 || t[1] != '.') return false;
      break;
    case '-':  // "-1.#IND", "-1.#QNAN", "-NaN", "-nan"
      if (t.size() < 4 || (t[1] != '1' && t[1] != 'N' && t[1] != 'n')) return false;
      break;
    default:
      return false;
  }
  static constexpr std::string_view kTokens[] = {
      "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
      "<NA>", "N/A",      "NA",  "NULL",    "NaN",      "None", "n/a",  "nan",    "null"};
  for (std::string_view token : kTokens) {
    if (t == token) return true;
  }
  return false;
}

// pandas' isspace_ascii.
inline bool IsSpaceAscii(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether the eight bytes of `word` are all ASCII digits.
inline bool AreEightDigits(uint64_t word) {
  return ((word & 0xF0F0F0F0F0F0F0F0ull) |
          (((word + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) == 0x3333333333333333ull;
}

// The value of eight ASCII digits loaded little-endian (the first digit in
// the lowest byte): pairs, then quads, then the whole, by multiplication.
inline uint64_t EightDigitsValue(uint64_t word) {
  constexpr uint64_t kMask = 0x000000FF000000FFull;
  constexpr uint64_t kHundredAndMillion = 100 + (uint64_t{1000000} << 32);
  constexpr uint64_t kOneAndTenThousand = 1 + (uint64_t{10000} << 32);
  word -= 0x3030303030303030ull;
  word = word * 10 + (word >> 8);
  return (((word & kMask) * kHundredAndMillion) + (((word >> 16) & kMask) * kOneAndTenThousand)) >>
         32;
}

// The sign of w / 10**k - (2 * m + 1) * 2**f (the midpoint above the double
// m * 2**(f + 1)), in exact 128-bit integer arithmetic; the callers' ranges
// keep every product below 2**128.
inline int CompareWithMidpoint(uint64_t w, int k, uint64_t m, int f) {
  using U128 = unsigned __int128;
  static constexpr uint64_t kPowers[] = {1,
                                         10,
                                         100,
                                         1000,
                                         10000,
                                         100000,
                                         1000000,
                                         10000000,
                                         100000000,
                                         1000000000,
                                         10000000000,
                                         100000000000,
                                         1000000000000,
                                         10000000000000,
                                         100000000000000,
                                         1000000000000000,
                                         10000000000000000,
                                         100000000000000000,
                                         1000000000000000000};
  U128 lhs = w, rhs = U128{m * 2 + 1} * kPowers[k];
  if (f >= 0) {
    rhs <<= f;
  } else {
    lhs <<= -f;
  }
  return lhs < rhs ? -1 : lhs > rhs ? 1 : 0;
}

// w / 10**k correctly rounded (to nearest, ties to even), for
// 2**53 < w < 10**19 and k <= 18, the longer decimals programs write (17
// significant digits). The quotient of the rounded w and 10**k is within two
// ulps of the value; exact comparisons with the midpoints between
// neighbouring doubles then move it to the right one. The value lies in
// [2**53 / 10**18, 10**19), far from subnormals and overflow, so the
// products compared stay below 2**125.
inline double RoundedDecimal(uint64_t w, int k) {
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                       1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  double c = static_cast<double>(w) / kPowers[k];
  // Positive normal doubles: the bit patterns of neighbours differ by one.
  uint64_t bits;
  std::memcpy(&bits, &c, sizeof bits);
  const auto significand = [](uint64_t b) {  // the double is this * 2**(exponent + 1)
    return (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
  };
  const auto exponent = [](uint64_t b) { return static_cast<int>(b >> 52) - 1075 - 1; };
  while (true) {
    const uint64_t m = significand(bits);
    const int above = CompareWithMidpoint(w, k, m, exponent(bits));
    if (above > 0 || (above == 0 && (m & 1) != 0)) {
      ++bits;
      continue;
    }
    const int below = CompareWithMidpoint(w, k, significand(bits - 1), exponent(bits - 1));
    if (below < 0 || (below == 0 && (m & 1) != 0)) {
      --bits;
      continue;
    }
    break;
  }
  std::memcpy(&c, &bits, sizeof c);
  return c;
}

enum class IntParse { kOk, kInvalid, kOverflow };

// pandas' str_to_int64: surrounding whitespace allowed, optional sign, digits.
// Overflow is reported as soon as the digits overflow, before checking what
// follows them (this order decides how pandas falls back).
inline IntParse ParseInt64(std::string_view s, int64_t* out) {
  if (!s.empty() && s.size() <= 18) {  // plain digits, too few to overflow: most ids and labels
    uint64_t value = 0;
    size_t i = 0;
    for (; i < s.size() && IsDigit(s[i]); ++i) value = value * 10 + static_cast<unsigned>(s[i] - '0');
    if (i == s.size()) {
      *out = static_cast<int64_t>(value);
      return IntParse::kOk;
    }
  }
  size_t i = 0;
  const size_t n = s.size();
  while (i < n && IsSpaceAscii(s[i])) ++i;
  bool negative = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  if (i >= n || !IsDigit(s[i])) return IntParse::kInvalid;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t value = 0;
  for (; i < n && IsDigit(s[i]); ++i) {
    const unsigned digit = static_cast<unsigned>(s[i] - '0');
    if (value > (limit - digit) / 10) return IntParse::kOverflow;
    value = value * 10 + digit;
  }
  while (i < n && IsSpaceAscii(s[i])) ++i;
  if (i != n) return IntParse::kInvalid;
  *out = negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
  return IntParse::kOk;
}

// ParseInt64 of a field of 1 to 8 plain digits (most ids and labels),
// read as one word: the `readable` bytes from `p` on may be read, at least
// 8 of them. False, storing nothing, for anything else (the caller then
// calls ParseInt64), and on big-endian machines.
inline bool ParseShortDigits(const char* p, size_t size, size_t readable, int64_t* out) {
  if constexpr (std::endian::native != std::endian::little) return false;
  if (size == 0 || size > 8 || readable < 8) return false;
  uint64_t word;
  std::memcpy(&word, p, 8);
  if (size < 8) {
    // The field's bytes to the top (the last digit in the highest byte),
    // "0"s below them: leading zeros, which EightDigitsValue takes as such.
    const int pad = 8 * static_cast<int>(8 - size);
    word = (word << pad) | (0x3030303030303030ull >> (64 - pad));
  }
  if (!AreEightDigits(word)) return false;
  *out = static_cast<int64_t>(EightDigitsValue(word));
  return true;
}

// pandas' str_to_uint64: like ParseInt64, but any value starting with "-"
// only marks `*negative` (its digits are not even checked).
inline IntParse ParseUint64(std::string_view s, uint64_t* out, bool* negative) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n && IsSpaceAscii(s[i])) ++i;
  *negative = false;
  if (i < n && s[i] == '-') {
    *negative = true;
    *out = 0;
    return IntParse::kOk;
  }
  if (i < n && s[i] == '+') ++i;
  if (i >= n || !IsDigit(s[i])) return IntParse::kInvalid;
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (; i < n && IsDigit(s[i]); ++i) {
    const unsigned digit = static_cast<unsigned>(s[i] - '0');
    if (value > (kMax - digit) / 10) return IntParse::kOverflow;
    value = value * 10 + digit;
  }
  while (i < n && IsSpaceAscii(s[i])) ++i;
  if (i != n) return IntParse::kInvalid;
  *out = value;
  return IntParse::kOk;
}

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// Whether the decimal literal `mantissa` (digits with an optional ".") times
// 10^`exponent` (the literal's exponent) is at least 1; decides the direction
// of a value that std::from_chars reports as out of range.
inline bool MagnitudeAtLeastOne(std::string_view mantissa, std::string_view exponent) {
  int64_t position = 0;  // decimal exponent of the first nonzero digit, + 1
  bool seen_point = false, seen_nonzero = false;
  int64_t int_digits = 0, leading_fraction_zeros = 0;
  for (char c : mantissa) {
    if (c == '.') {
      seen_point = true;
    } else if (!seen_nonzero && c == '0') {
      if (seen_point) ++leading_fraction_zeros;
    } else {
      if (!seen_point) ++int_digits;
      seen_nonzero = true;
    }
  }
  if (!seen_nonzero) return false;  // zero
  position = int_digits > 0 ? int_digits : -leading_fraction_zeros;
  bool negative = false;
  size_t i = 0;
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) {
    negative = exponent[0] == '-';
    ++i;
  }
  int64_t e = 0;
  for (; i < exponent.size(); ++i) e = std::min<int64_t>(e * 10 + (exponent[i] - '0'), 1 << 30);
  position += negative ? -e : e;
  return position > 0;
}

// pandas' float parsing with float_precision="round_trip": leading
// whitespace, then [+-]digits[.digits][(e|E)[+-]digits] correctly rounded
// (Python's float parser), then trailing whitespace. Overflow to +inf fails
// (pandas checks for HUGE_VAL) while overflow to -inf succeeds. Failing
// that, "inf", "+inf", "-inf", "Infinity", "+Infinity" and "-Infinity" in
// any case.
inline bool ParseDouble(std::string_view s, double* out) {
  const size_t n = s.size();
  // Clinger's fast path, most values a program writes: [+-]digits[.digits]
  // and nothing else, whose digits w (as an integer) are at most 2**53 with
  // k <= 22 of them after the point. w and 10**k are then exact doubles, so
  // the one correctly rounded division is the correctly rounded value.
  {
    static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    size_t i = 0;
    bool negative = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
    uint64_t w = 0;
    size_t digits = 0, fraction_digits = 0;
    for (; i < n && IsDigit(s[i]) && digits < 19; ++i, ++digits) w = w * 10 + (s[i] - '0');
    if (i < n && s[i] == '.') {
      ++i;
      // Eight digits at a time while they fit (fractions are long).
      if constexpr (std::endian::native == std::endian::little) {
        while (digits + 8 < 19 && i + 8 <= n) {
          uint64_t word;
          std::memcpy(&word, s.data() + i, 8);
          if (!AreEightDigits(word)) break;
          w = w * 100000000 + EightDigitsValue(word);
          digits += 8, fraction_digits += 8, i += 8;
        }
      }
      for (; i < n && IsDigit(s[i]) && digits < 19; ++i, ++digits, ++fraction_digits) {
        w = w * 10 + (s[i] - '0');
      }
    }
    if (i == n && digits > 0 && (w <= (uint64_t{1} << 53) || fraction_digits <= 18)) {
      const double value = w <= (uint64_t{1} << 53)
                               ? static_cast<double>(w) / kPowersOfTen[fraction_digits]
                               : RoundedDecimal(w, static_cast<int>(fraction_digits));
      *out = negative ? -value : value;
      return true;
    }
  }
  size_t i = 0;
  while (i < n && IsSpaceAscii(s[i])) ++i;
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  const size_t mantissa_start = i;
  size_t digits = 0;
  while (i < n && IsDigit(s[i])) ++i, ++digits;
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && IsDigit(s[i])) ++i, ++digits;
  }
  const size_t mantissa_end = i;
  bool valid = digits > 0;
  size_t exponent_start = i;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    exponent_start = i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < n && IsDigit(s[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) valid = false;
  }
  const size_t number_end = i;
  if (valid) {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(s.data() + mantissa_start, s.data() + number_end, value,
                                           std::chars_format::general);
    if (ec == std::errc::result_out_of_range) {
      const std::string_view mantissa = s.substr(mantissa_start, mantissa_end - mantissa_start);
      const std::string_view exponent = number_end > mantissa_end
                                            ? s.substr(exponent_start, number_end - exponent_start)
                                            : std::string_view();
      value =
          MagnitudeAtLeastOne(mantissa, exponent) ? std::numeric_limits<double>::infinity() : 0.0;
    } else if (ec != std::errc() || ptr != s.data() + number_end) {
      valid = false;
    }
    if (valid) {
      if (negative) value = -value;
      size_t j = number_end;
      while (j < n && IsSpaceAscii(s[j])) ++j;
      if (j == n && value != std::numeric_limits<double>::infinity()) {
        *out = value;
        return true;
      }
    }
  }
  if (EqualsIgnoreCase(s, "inf") || EqualsIgnoreCase(s, "+inf") ||
      EqualsIgnoreCase(s, "infinity") || EqualsIgnoreCase(s, "+infinity")) {
    *out = std::numeric_limits<double>::infinity();
    return true;
  }
  if (EqualsIgnoreCase(s, "-inf") || EqualsIgnoreCase(s, "-infinity")) {
    *out = -std::numeric_limits<double>::infinity();
    return true;
  }
  return false;
}

// pandas accepts its true/false values and, through to_boolean(), any
// capitalisation of "true" and "false".
inline bool ParseBool(std::string_view s, bool* out) {
  if (EqualsIgnoreCase(s, "true")) {
    *out = true;
    return true;
  }
  if (EqualsIgnoreCase(s, "false")) {
    *out = false;
    return true;
  }
  return false;
}

}  // namespace mlebench::csv_internal

#endif  // MLEBENCH_BASE_INTERNAL_CSV_VALUES_H_
