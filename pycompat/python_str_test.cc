#include "pycompat/python_str.h"

#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;

std::string Lower(const std::string& utf8) { return EncodeUtf8(PythonLower(*DecodeUtf8(utf8))); }

std::vector<std::string> Split(const std::string& utf8) {
  std::vector<std::string> words;
  for (const std::u32string& word : PythonSplit(*DecodeUtf8(utf8))) words.push_back(EncodeUtf8(word));
  return words;
}

TEST(PythonStrTest, DecodeIsStrictAndRoundTrips) {
  for (const std::string text : {"", "abc", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
    ASSERT_TRUE(DecodeUtf8(text).has_value()) << text;
    EXPECT_EQ(EncodeUtf8(*DecodeUtf8(text)), text);
  }
  EXPECT_EQ(DecodeUtf8("\xf0\x9f\x98\x80")->size(), 1u);
  for (const std::string bad : {"\xff", "\xc3", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "a\x80", "\xe2\x82"}) {
    EXPECT_FALSE(DecodeUtf8(bad).has_value()) << bad;
  }
}

TEST(PythonStrTest, LowerUsesFullMappingsAndFinalSigma) {
  EXPECT_EQ(Lower("HeLLo W\xc3\x96RLD"), "hello w\xc3\xb6rld");
  // U+0130 (I with dot) lowers to "i" + U+0307.
  EXPECT_EQ(Lower("\xc4\xb0"), "i\xcc\x87");
  // Capital sigma: final after a letter, medial before one, plain alone.
  EXPECT_EQ(Lower("\xce\x9f\xce\xa3"), "\xce\xbf\xcf\x82");
  EXPECT_EQ(Lower("\xce\xa3\xce\x9f"), "\xcf\x83\xce\xbf");
  EXPECT_EQ(Lower("\xce\xa3"), "\xcf\x83");
  EXPECT_EQ(Lower("\xce\x9f\xce\xa3 x"), "\xce\xbf\xcf\x82 x");
  // A case-ignorable apostrophe (U+0027) is skipped on both sides.
  EXPECT_EQ(Lower("\xce\x9f'\xce\xa3'\xce\x9f"), "\xce\xbf'\xcf\x83'\xce\xbf");
  EXPECT_EQ(Lower("123 ABC"), "123 abc");
}

TEST(PythonStrTest, SplitOnPythonWhitespace) {
  EXPECT_THAT(Split("  a b\t\nc  "), ElementsAre("a", "b", "c"));
  EXPECT_THAT(Split(""), ElementsAre());
  EXPECT_THAT(Split(" \x1c\x1f "), ElementsAre());
  // U+00A0 and U+3000 split; U+200B (zero-width space) does not.
  EXPECT_THAT(Split("a\xc2\xa0" "b\xe3\x80\x80" "c\xe2\x80\x8b" "d"), ElementsAre("a", "b", "c\xe2\x80\x8b" "d"));
}

// The ASCII splitter against the general one, on every ASCII byte alone and
// between words, and on texts mixing words with every kind of whitespace.
TEST(PythonStrTest, SplitAsciiMatchesSplit) {
  std::vector<std::string> texts = {"", " ", "a", "  a b\t\nc  ", "\x1c" "a\x1f" "b\x1b" "c\x7f"};
  for (int c = 0; c < 128; ++c) {
    texts.push_back(std::string(1, static_cast<char>(c)));
    texts.push_back("x" + std::string(1, static_cast<char>(c)) + "y");
    texts.push_back(std::string(1, static_cast<char>(c)) + "ab" + std::string(2, static_cast<char>(c)));
  }
  std::vector<std::string_view> words;
  for (const std::string& text : texts) {
    PythonSplitAscii(text, words);
    EXPECT_THAT(std::vector<std::string>(words.begin(), words.end()),
                ::testing::ElementsAreArray(Split(text)))
        << "text of " << text.size() << " bytes, first " << (text.empty() ? -1 : int(text[0]));
  }
  words.push_back("stale");
  PythonSplitAscii("", words);
  EXPECT_THAT(words, ElementsAre());
}

}  // namespace
}  // namespace mlebench
