#include "pycompat/python_unicode.h"

#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(PythonDecimalAndSpaceToAsciiTest, AsciiPassesThrough) {
  EXPECT_EQ(PythonDecimalAndSpaceToAscii(" -1_0.5e3\t"), " -1_0.5e3\t");
  EXPECT_EQ(PythonDecimalAndSpaceToAscii(""), "");
}

TEST(PythonDecimalAndSpaceToAsciiTest, UnicodeDigitsAndSpacesBecomeAscii) {
  // Arabic-Indic 3, fullwidth 7, no-break space, ideographic space,
  // mathematical bold 9 (U+1D7D7, four UTF-8 bytes).
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("\u0663\uFF17\u00A0\u3000\U0001D7D7"), "37  9");
  // Thai and Devanagari digits.
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("\u0E55\u096F"), "59");
}

TEST(PythonDecimalAndSpaceToAsciiTest, OtherCharactersAreNoNumber) {
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("\u00B2"), std::nullopt);    // superscript 2: no Nd
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("\u56DB"), std::nullopt);    // CJK four: numeric, no Nd
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("1\x7f"), std::nullopt);     // DEL, as CPython: '?'
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("1\xff"), std::nullopt);     // not UTF-8
  EXPECT_EQ(PythonDecimalAndSpaceToAscii("\xed\xa0\x80"), std::nullopt);  // a surrogate
}

}  // namespace
}  // namespace mlebench
