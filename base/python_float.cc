#include "base/python_float.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>

namespace mlebench {

std::string FormatPythonFloat(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // Shortest round-trip digits in scientific form: "d.ddde[+-]xx".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value,
                           std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  const size_t e_pos = sci.find('e');
  std::string mantissa = sci.substr(0, e_pos);
  const int exponent = std::atoi(sci.c_str() + e_pos + 1);
  bool negative = false;
  if (!mantissa.empty() && mantissa[0] == '-') {
    negative = true;
    mantissa.erase(0, 1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    const int point = exponent + 1;  // digits before the decimal point
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<size_t>(-point), '0');
      out += digits;
    } else if (static_cast<size_t>(point) >= digits.size()) {
      out += digits;
      out.append(static_cast<size_t>(point) - digits.size(), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(point));
      out += '.';
      out += digits.substr(static_cast<size_t>(point));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  char exp_buf[16];
  std::snprintf(exp_buf, sizeof(exp_buf), "e%c%02d", exponent < 0 ? '-' : '+',
                std::abs(exponent));
  out += exp_buf;
  return out;
}

double RoundPython(double value, int ndigits) {
  if (!std::isfinite(value)) return value;
  // CPython's float.__round__ limits: beyond 323 decimals every double is
  // already exact; below -308 everything rounds to a signed zero.
  if (ndigits > 323) return value;
  if (ndigits < -308) return 0.0 * value;
  if (ndigits >= 0) {
    // glibc's printf rounds the exact binary value correctly (ties to even
    // in the default rounding mode), which is what CPython's round() does
    // through its own correctly rounded dtoa; strtod then picks the nearest
    // double. 309 integer digits + "." + 323 decimals + sign fit.
    char buf[700];
    std::snprintf(buf, sizeof(buf), "%.*f", ndigits, value);
    return std::strtod(buf, nullptr);
  }
  // Negative ndigits: round the exact integer part half-to-even at the
  // 10^-ndigits digit; a nonzero fraction only matters to break a tie.
  const double integral = std::trunc(value);
  const bool fraction_nonzero = integral != value;
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%.0f", std::fabs(integral));
  const std::string digits(buf);
  const size_t k = static_cast<size_t>(-ndigits);
  std::string head = digits.size() > k ? digits.substr(0, digits.size() - k) : "";
  const std::string tail = digits.size() > k ? digits.substr(digits.size() - k)
                                             : std::string(k - digits.size(), '0') + digits;
  const std::string half = "5" + std::string(k - 1, '0');
  const int cmp = tail.compare(half);
  bool round_up;
  if (cmp > 0 || (cmp == 0 && fraction_nonzero)) {
    round_up = true;
  } else if (cmp < 0) {
    round_up = false;
  } else {  // an exact tie: to even
    round_up = !head.empty() && (head.back() - '0') % 2 == 1;
  }
  if (round_up) {
    int i = static_cast<int>(head.size()) - 1;
    while (i >= 0 && head[i] == '9') head[i--] = '0';
    if (i >= 0) {
      ++head[i];
    } else {
      head.insert(head.begin(), '1');
    }
  }
  if (head.empty()) head = "0";
  const std::string text = (std::signbit(value) ? "-" : "") + head + "e" + std::to_string(k);
  // Overflow gives inf here (CPython raises OverflowError).
  return std::strtod(text.c_str(), nullptr);
}

double DecimalTextToDouble(std::string_view decimal) {
  std::string_view body = decimal;
  const bool negative = !body.empty() && body.front() == '-';
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) body.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(body.data(), body.data() + body.size(), value,
                                            std::chars_format::general);
  // Out of range (overflow, or underflow to zero) goes to strtod, whose
  // rounding there is what Python's and numpy's is.
  if (error == std::errc() && end == body.data() + body.size()) return negative ? -value : value;
  return std::strtod(std::string(decimal).c_str(), nullptr);
}

}  // namespace mlebench
