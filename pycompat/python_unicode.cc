#include "pycompat/python_unicode.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "base/utf8.h"

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

}  // namespace

std::optional<std::string> PythonDecimalAndSpaceToAscii(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 127) {  // as CPython: DEL is no digit
      out.push_back(text[i++]);
      continue;
    }
    std::optional<char32_t> c = DecodeUtf8At(text, i);
    if (!c.has_value()) return std::nullopt;
    if (IsNonAsciiSpace(*c)) {
      out.push_back(' ');
    } else if (int digit = NonAsciiDigit(*c); digit >= 0) {
      out.push_back(static_cast<char>('0' + digit));
    } else {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace mlebench
