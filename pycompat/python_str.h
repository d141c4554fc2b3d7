#ifndef MLEBENCH_PYCOMPAT_PYTHON_STR_H_
#define MLEBENCH_PYCOMPAT_PYTHON_STR_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/utf8.h"
#include "base/table.h"

namespace mlebench {

// Python's `str(value)` of a cell as pandas' `Series.astype(str)` applies
// it: missing -> "nan", bools "True"/"False", ints in decimal, floats as
// repr ("1.0", "1e+16", "inf"), strings unchanged.
std::string PythonStr(const Cell& cell);

// The few Python `str` methods that upstream's text metrics apply, on UTF-8
// text, code point for code point as CPython 3.11 (Unicode 14) does. The
// Unicode data comes from python_str_data.inc, which
// python_str_data_gen.py writes with /usr/bin/python3.

// (DecodeUtf8 and EncodeUtf8, which these take and give, are base/utf8.h's.)

// `text.lower()`: full lower-case mappings (U+0130 becomes two code points)
// and the Final_Sigma rule for U+03A3 (a capital sigma after a cased letter,
// not followed by one, case-ignorable characters skipped, becomes U+03C2).
std::u32string PythonLower(std::u32string_view text);

// `text.split()` with no arguments: the maximal runs of characters that are
// not Python whitespace (str.isspace(), which includes U+001C..U+001F, U+0085,
// U+00A0 and U+3000, but not U+200B).
std::vector<std::u32string> PythonSplit(std::u32string_view text);

// Python's str.isspace() on an ASCII character: \t \n \v \f \r, the four
// information separators \x1c-\x1f, and the space.
inline bool IsPythonAsciiSpace(unsigned char c) {
  return (c >= 9 && c <= 13) || (c >= 28 && c <= 32);
}

// `text.split()` of ASCII text (IsAscii, base/utf8.h), where Python's split
// is byte-wise: `words` (cleared first, so a caller can reuse it) views
// `text` instead of copying each word. What PythonSplit gives for the same
// text, without decoding it.
void PythonSplitAscii(std::string_view text, std::vector<std::string_view>& words);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_STR_H_
