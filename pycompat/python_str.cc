#include "pycompat/python_str.h"

#include "base/python_float.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlebench {
namespace {

struct LowerMapping {
  char32_t code_point;
  char32_t lower[2];  // lower[1] == 0 for a single code point
};

struct CodePointRange {
  char32_t first, last;  // inclusive
};

#include "pycompat/python_str_data.inc"

template <size_t N>
bool InRanges(const CodePointRange (&ranges)[N], char32_t c) {
  const CodePointRange* it = std::upper_bound(
      std::begin(ranges), std::end(ranges), c,
      [](char32_t value, const CodePointRange& range) { return value < range.first; });
  return it != std::begin(ranges) && c <= std::prev(it)->last;
}

bool IsWhitespace(char32_t c) { return InRanges(kWhitespaceRanges, c); }
bool IsCaseIgnorable(char32_t c) { return InRanges(kCaseIgnorableRanges, c); }
bool IsCased(char32_t c) { return InRanges(kCasedRanges, c); }

constexpr char32_t kCapitalSigma = 0x3A3;

// CPython's handle_capital_sigma: the lower case of the sigma at `i`.
char32_t LowerSigma(std::u32string_view text, size_t i) {
  size_t j = i;
  while (j > 0 && IsCaseIgnorable(text[j - 1])) --j;
  bool final_sigma = j > 0 && IsCased(text[j - 1]);
  if (final_sigma) {
    size_t k = i + 1;
    while (k < text.size() && IsCaseIgnorable(text[k])) ++k;
    final_sigma = k == text.size() || !IsCased(text[k]);
  }
  return final_sigma ? 0x3C2 : 0x3C3;
}

}  // namespace

std::u32string PythonLower(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    if (c == kCapitalSigma) {
      out.push_back(LowerSigma(text, i));
      continue;
    }
    const LowerMapping* it = std::lower_bound(
        std::begin(kLowerMappings), std::end(kLowerMappings), c,
        [](const LowerMapping& m, char32_t value) { return m.code_point < value; });
    if (it == std::end(kLowerMappings) || it->code_point != c) {
      out.push_back(c);
      continue;
    }
    out.push_back(it->lower[0]);
    if (it->lower[1] != 0) out.push_back(it->lower[1]);
  }
  return out;
}

std::vector<std::u32string> PythonSplit(std::u32string_view text) {
  std::vector<std::u32string> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsWhitespace(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !IsWhitespace(text[i])) ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

void PythonSplitAscii(std::string_view text, std::vector<std::string_view>& words) {
  words.clear();
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsPythonAsciiSpace(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !IsPythonAsciiSpace(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
}

std::string PythonStr(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "nan";
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "True" : "False";
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&cell)) return FormatPythonFloat(*d);
  return std::get<std::string>(cell);
}

}  // namespace mlebench
