#include "base/utf8.h"

#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(Utf8Test, AsciiAndValidityAtEveryPositionOfAWord) {
  // The 8-byte steps must not skip a high byte anywhere, nor an invalid
  // sequence after a run of ASCII words.
  for (size_t length = 0; length < 24; ++length) {
    const std::string ascii(length, 'a');
    EXPECT_TRUE(IsAscii(ascii));
    EXPECT_TRUE(IsValidUtf8(ascii));
    for (size_t at = 0; at < length; ++at) {
      std::string high = ascii;
      high[at] = static_cast<char>(0x80);
      EXPECT_FALSE(IsAscii(high)) << length << " " << at;
      EXPECT_FALSE(IsValidUtf8(high)) << length << " " << at;
      if (at + 1 < length) {
        std::string valid = ascii;
        valid[at] = static_cast<char>(0xC3);
        valid[at + 1] = static_cast<char>(0xA9);
        EXPECT_FALSE(IsAscii(valid));
        EXPECT_TRUE(IsValidUtf8(valid)) << length << " " << at;
      }
    }
  }
}

TEST(Utf8Test, StrictAsPythonDecodes) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));  // a, é, €, 😀
  EXPECT_FALSE(IsValidUtf8("\xc0\x80"));          // overlong NUL
  EXPECT_FALSE(IsValidUtf8("\xe0\x80\xaf"));      // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\x80"));              // lone continuation
  EXPECT_FALSE(IsValidUtf8("\xc3\x28"));          // bad continuation
  EXPECT_FALSE(IsValidUtf8("\xf5\x80\x80\x80"));  // invalid lead
}

TEST(Utf8Test, DecodeAtAdvancesOnlyOverValidSequences) {
  const std::string text = "\xe2\x82\xac\xff";
  size_t pos = 0;
  EXPECT_EQ(DecodeUtf8At(text, pos), std::optional<char32_t>(0x20AC));
  EXPECT_EQ(pos, 3u);
  EXPECT_EQ(DecodeUtf8At(text, pos), std::nullopt);
  EXPECT_EQ(pos, 3u);
  EXPECT_EQ(Utf8SequenceLength(text, 0), 3u);
  EXPECT_EQ(Utf8SequenceLength(text, 3), 0u);
}

TEST(Utf8Test, RoundTripsEveryScalarValueBoundary) {
  for (char32_t c : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFFu, 0x10000u,
                     0x10FFFFu}) {
    const std::string bytes = EncodeUtf8(std::u32string(1, c));
    EXPECT_EQ(DecodeUtf8(bytes), std::optional<std::u32string>(std::u32string(1, c)))
        << static_cast<uint32_t>(c);
  }
  // Surrogates are written (surrogatepass) but not read back.
  std::string surrogate;
  AppendUtf8(0xD800, surrogate);
  EXPECT_EQ(surrogate, "\xed\xa0\x80");
  EXPECT_EQ(DecodeUtf8(surrogate), std::nullopt);
  size_t pos = 0;
  EXPECT_EQ(DecodeUtf8At(surrogate, pos, /*allow_surrogates=*/true),
            std::optional<char32_t>(0xD800));
  EXPECT_EQ(pos, 3u);
}

}  // namespace
}  // namespace mlebench
