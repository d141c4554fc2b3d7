#include "base/display_text.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::RunPython;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(EscapeForConsoleTest, ForgedLinesStayOnOneLine) {
  // What an agent put in a cell to forge a passing gate and test result.
  const std::string forged = "x\r//competitions/a:a  PASSED in 1s\ngate valid: PASS\x1b[2K";
  const std::string shown = EscapeForConsole(forged);
  EXPECT_EQ(shown, "x\\r//competitions/a:a  PASSED in 1s\\ngate valid: PASS\\x1b[2K");
  EXPECT_EQ(shown.find_first_of("\r\n\x1b"), std::string::npos);
}

TEST(EscapeForConsoleTest, EveryHiddenCharacterIsShown) {
  EXPECT_EQ(EscapeForConsole("a\\b"), "a\\\\b");  // so that "\\n" cannot pass for "\n"
  EXPECT_EQ(EscapeForConsole(std::string("\0\t\x7f", 3)), "\\x00\\t\\x7f");
  EXPECT_EQ(EscapeForConsole("\xc2\x9b" "31m"), "\\u009b31m");  // the C1 CSI
  EXPECT_EQ(EscapeForConsole("\xe2\x80\xae" "cba"), "\\u202ecba");  // right-to-left override
  EXPECT_EQ(EscapeForConsole("\xe2\x80\xa8"), "\\u2028");
  EXPECT_EQ(EscapeForConsole("\xef\xbf\xbf"), "\\uffff");
  EXPECT_EQ(EscapeForConsole("\xff\xc3"), "\\xff\\xc3");  // not UTF-8
  EXPECT_EQ(EscapeForConsole("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  // Printable text of any script is kept as it is.
  EXPECT_EQ(EscapeForConsole("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80"),
            "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80");
}

TEST(EscapeForConsoleTest, LongTextIsCutAtACharacter) {
  EXPECT_EQ(EscapeForConsole("abcdef", 4), "abcd... (2 more bytes)");
  // Not inside the two bytes of an "é".
  EXPECT_EQ(EscapeForConsole("abc\xc3\xa9", 4), "abc... (2 more bytes)");
  EXPECT_EQ(EscapeForConsole("abc", 4), "abc");
}

TEST(EscapeForXmlTest, MarkupAndForbiddenCharacters) {
  EXPECT_EQ(EscapeForXml("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(EscapeForXml("a\nb\tc\rd"), "a&#10;b&#9;c&#13;d");
  EXPECT_EQ(EscapeForXml(std::string("a\x01z", 3)), "a\\x01z");
  EXPECT_EQ(EscapeForXml("\xef\xbf\xbf\xef\xbf\xbe"), "\\uffff\\ufffe");  // not XML 1.0
  EXPECT_EQ(EscapeForXml("\xff"), "\\xff");
  EXPECT_EQ(EscapeForXml("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(EscapeForXmlTest, AnyBytesMakeADocumentThatParses) {
  // Random bytes, weighted towards the troublemakers, each escaped into an
  // attribute and character data; Python's expat parser reads them all.
  std::mt19937_64 rng(20261206);
  const std::vector<std::string> pieces = {
      "\x01", "\x1b", "\r", "\n", "\t", "<", "&", "\"", "'", "]]>", "\xef\xbf\xbf",
      "\xef\xbf\xbe", "\xed\xa0\x80", "\xc2\x85", "\xe2\x80\xa8", "\xff", "\xc3", "a", "\xc3\xa9",
      "\xf0\x9f\x98\x80", std::string(1, '\0')};
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cases>\n";
  const int kCases = 2000;
  for (int i = 0; i < kCases; ++i) {
    std::string text;
    const int n = static_cast<int>(rng() % 12);
    for (int k = 0; k < n; ++k) {
      text += rng() % 3 == 0 ? std::string(1, static_cast<char>(rng() & 0xFF))
                             : pieces[rng() % pieces.size()];
    }
    absl::StrAppend(&xml, "<case value=\"", EscapeForXml(text), "\">", EscapeForXml(text),
                    "</case>\n");
  }
  xml += "</cases>\n";
  const auto file = NewTempDir("xml") / "cases.xml";
  WriteFileOrFail(file, xml);
  const auto result = RunPython(
      "import sys, xml.etree.ElementTree as ET\n"
      "cases = ET.parse(sys.argv[1]).getroot()\n"
      "assert all(c.get('value') == c.text or (c.text is None and c.get('value') == '')"
      " for c in cases), 'attribute and text differ'\n"
      "print(len(cases))\n",
      {file.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr(absl::StrCat(kCases)));
  EXPECT_THAT(result.output, Not(HasSubstr("Error")));
}

}  // namespace
}  // namespace mlebench
