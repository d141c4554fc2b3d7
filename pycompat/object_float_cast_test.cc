#include "pycompat/object_float_cast.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>
#include <variant>

#include "base/python_float.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(PythonFloatFromStringTest, DecimalNumbers) {
  EXPECT_EQ(PythonFloatFromString("0.5"), 0.5);
  EXPECT_EQ(PythonFloatFromString("-3"), -3.0);
  EXPECT_EQ(PythonFloatFromString("+.5e-3"), 0.0005);
  EXPECT_EQ(PythonFloatFromString("5."), 5.0);
  EXPECT_EQ(PythonFloatFromString("1E+2"), 100.0);
  EXPECT_EQ(PythonFloatFromString("0.1"), 0.1);  // correctly rounded
  EXPECT_EQ(PythonFloatFromString("1e999"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloatFromString("-1e999"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloatFromString("1e-400"), 0.0);
}

TEST(PythonFloatFromStringTest, WhitespaceAndUnderscores) {
  EXPECT_EQ(PythonFloatFromString(" \t0.25\n\v\f\r"), 0.25);
  EXPECT_EQ(PythonFloatFromString("\xc2\xa0"
                                  "1\xe3\x80\x80"),
            1.0);  // NBSP, ideographic space
  EXPECT_EQ(PythonFloatFromString("1_000.000_5"), 1000.0005);
  EXPECT_EQ(PythonFloatFromString("1e1_0"), 1e10);
  for (const char* bad : {"1__0", "_1", "1_", "1._5", "1_.5", "nan_", "1 0",
                          "\x1c"
                          "1"}) {
    EXPECT_FALSE(PythonFloatFromString(bad).has_value()) << bad;
  }
}

TEST(PythonFloatFromStringTest, UnicodeDigits) {
  EXPECT_EQ(PythonFloatFromString("\xd9\xa1\xd9\xa2"), 12.0);    // Arabic-Indic 1 2
  EXPECT_EQ(PythonFloatFromString("\xd9\xa1.\xd9\xa5"), 1.5);    // Arabic-Indic 1.5
  EXPECT_EQ(PythonFloatFromString("\xef\xbc\x97"), 7.0);         // fullwidth 7
  EXPECT_FALSE(PythonFloatFromString("\xc2\xbd").has_value());   // vulgar fraction 1/2
  EXPECT_FALSE(PythonFloatFromString("1\xc3\xa9").has_value());  // 1é
  EXPECT_FALSE(PythonFloatFromString("\xff").has_value());       // not UTF-8
}

TEST(PythonFloatFromStringTest, InfinityAndNan) {
  EXPECT_EQ(PythonFloatFromString("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(PythonFloatFromString("-InFiNiTy"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(*PythonFloatFromString(" +NaN ")));
  for (const char* bad : {"infinit", "infinityx", "in f", "nanx", "-", ""}) {
    EXPECT_FALSE(PythonFloatFromString(bad).has_value()) << bad;
  }
}

// Text of digits, signs, points and e/E alone takes a short path; with a
// space around it (stripped), the general one. Both must agree on every such
// text of up to five characters.
TEST(PythonFloatFromStringTest, ShortPathAgreesWithGeneralPath) {
  constexpr std::string_view kAlphabet = "01.-+eE";
  std::vector<std::string> texts = {""};
  for (int length = 1; length <= 5; ++length) {
    std::vector<std::string> longer;
    for (const std::string& text : texts) {
      if (text.size() + 1 != static_cast<size_t>(length)) continue;
      for (char c : kAlphabet) longer.push_back(text + c);
    }
    texts.insert(texts.end(), longer.begin(), longer.end());
  }
  int parsed = 0;
  for (const std::string& text : texts) {
    const std::optional<double> short_path = PythonFloatFromString(text);
    EXPECT_EQ(short_path, PythonFloatFromString(" " + text + "\t")) << "'" << text << "'";
    if (short_path.has_value()) ++parsed;
  }
  EXPECT_GT(parsed, 500);  // 834: "1e-01", "+.1e1", ... not only rejections
}

// Plain decimals (no exponent, digits as an integer up to 2**53, up to 22
// after the point) are divided by a power of ten; each must be the
// correctly rounded value DecimalTextToDouble gives: random ones of every
// length, and the edges of that path (2**53 and one past it, 22 and 23
// fraction digits, signs, zeros).
TEST(PythonFloatFromStringTest, PlainDecimalsAreCorrectlyRounded) {
  std::vector<std::string> texts = {"9007199254740992",       "9007199254740993",
                                    "900719925474099.2",      "900719925474099.3",
                                    "0.9007199254740993",     "0.0000000000000000000001",
                                    "0.00000000000000000000001", "-0.0", "+0", "000.000", "5.",
                                    ".5", "-.25", "2074.77461", "0.1", "1234567890123456789",
                                    // Leading zeros are digits too: 19 of them, then more.
                                    "0000000000000000000.1", "00000000000000000000001",
                                    "0000000000000000000000.25"};
  std::mt19937_64 rng(9);
  for (int round = 0; round < 20000; ++round) {
    std::string text = rng() % 4 == 0 ? "-" : rng() % 8 == 0 ? "+" : "";
    const size_t int_digits = rng() % 12, fraction_digits = rng() % 24;
    for (size_t k = 0; k < int_digits; ++k) text += static_cast<char>('0' + rng() % 10);
    if (fraction_digits > 0 || int_digits == 0) text += ".";
    for (size_t k = 0; k < fraction_digits || (int_digits == 0 && k == 0); ++k) {
      text += static_cast<char>('0' + rng() % 10);
    }
    texts.push_back(text);
  }
  for (const std::string& text : texts) {
    const std::optional<double> value = PythonFloatFromString(text);
    ASSERT_TRUE(value.has_value()) << text;
    const double expected = DecimalTextToDouble(text);
    EXPECT_EQ(std::memcmp(&*value, &expected, sizeof(double)), 0)
        << text << ": " << *value << " vs " << expected;
  }
}

TEST(PythonFloatFromStringTest, RejectsWhatPythonRejects) {
  for (const char* bad : {".", "e5", "1e", "1e+", "0x10", "1,5", " ", "True", "1.2.3", "--1"}) {
    EXPECT_FALSE(PythonFloatFromString(bad).has_value()) << bad;
  }
}

TEST(ObjectToFloat64Test, ConvertsEveryCellKind) {
  EXPECT_EQ(ObjectToFloat64(Cell(true)), 1.0);
  EXPECT_EQ(ObjectToFloat64(Cell(false)), 0.0);
  EXPECT_EQ(ObjectToFloat64(Cell(int64_t{-4})), -4.0);
  EXPECT_EQ(ObjectToFloat64(Cell(0.75)), 0.75);
  EXPECT_TRUE(std::isnan(*ObjectToFloat64(Cell(std::monostate{}))));
  EXPECT_EQ(ObjectToFloat64(Cell(std::string("1_0"))), 10.0);
  EXPECT_FALSE(ObjectToFloat64(Cell(std::string("low"))).has_value());
}

}  // namespace
}  // namespace mlebench
