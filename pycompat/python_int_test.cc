#include "pycompat/python_int.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(PythonIntOfCellTest, NumbersAndBools) {
  EXPECT_EQ(PythonIntOfCell(Cell(int64_t{-7})), -7);
  EXPECT_EQ(PythonIntOfCell(Cell(true)), 1);
  EXPECT_EQ(PythonIntOfCell(Cell(false)), 0);
  EXPECT_EQ(PythonIntOfCell(Cell(2.9)), 2);
  EXPECT_EQ(PythonIntOfCell(Cell(-2.9)), -2);
  EXPECT_EQ(PythonIntOfCell(Cell(-0.5)), 0);
  EXPECT_EQ(PythonIntOfCell(Cell(std::numeric_limits<double>::quiet_NaN())), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(std::numeric_limits<double>::infinity())), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(1e19)), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(-9223372036854775808.0)), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(PythonIntOfCell(Cell()), std::nullopt);
}

TEST(PythonIntOfCellTest, StringsParseAsPythonInt) {
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("42"))), 42);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string(" \t-0042\n"))), -42);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("+1_000"))), 1000);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("-9223372036854775808"))),
            std::numeric_limits<int64_t>::min());
  for (const char* bad : {"", " ", "1.0", "1e3", "abc", "1__0", "_1", "1_", "0x10", "+",
                          "9223372036854775808", "1 2"}) {
    EXPECT_EQ(PythonIntOfCell(Cell(std::string(bad))), std::nullopt) << bad;
  }
}

TEST(PythonIntFromStringTest, ValuesAndErrors) {
  EXPECT_EQ(*PythonIntFromString("007"), 7);
  EXPECT_EQ(*PythonIntFromString("\v-1_2_3\f"), -123);
  EXPECT_EQ(*PythonIntFromString("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(*PythonIntFromString("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  // Valid for Python, beyond int64: OutOfRange, not a syntax error.
  for (const char* big : {"9223372036854775808", "-9223372036854775809", "1_000_000_000_000_000_000_000"}) {
    EXPECT_EQ(PythonIntFromString(big).status().code(), absl::StatusCode::kOutOfRange) << big;
  }
  for (const char* bad : {"", "-", "1-", "--1", "1__0", "1_", "_1", "1.", "99999999999999999999x",
                          "\x1c" "3", "3\x1f", "\u00b2", "\u2460", "\u0f33", "1\u00a0" "2",
                          "_\u0663", "\xff"}) {
    absl::StatusOr<int64_t> value = PythonIntFromString(bad);
    EXPECT_EQ(value.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(value.status().message(),
              absl::StrCat("invalid literal for int() with base 10: '", bad, "'"));
  }
}

// Python's int() maps non-ASCII whitespace to spaces and non-ASCII decimal
// digits to ASCII ones before parsing (values from CPython 3.11).
TEST(PythonIntFromStringTest, UnicodeDigitsAndWhitespace) {
  EXPECT_EQ(*PythonIntFromString("\u0663"), 3);  // Arabic-Indic three
  EXPECT_EQ(*PythonIntFromString("\uff11\uff10"), 10);  // full-width "10"
  EXPECT_EQ(*PythonIntFromString("\U0001d7d1"), 3);  // mathematical bold three
  EXPECT_EQ(*PythonIntFromString("\u0e53"), 3);  // Thai three
  EXPECT_EQ(*PythonIntFromString("\u0661_\u0662"), 12);
  EXPECT_EQ(*PythonIntFromString("+\u0663"), 3);
  EXPECT_EQ(*PythonIntFromString("\u00a0" "7"), 7);
  EXPECT_EQ(*PythonIntFromString("3\u2003"), 3);
  EXPECT_EQ(*PythonIntFromString("\xc2\x85" "3"), 3);  // U+0085
  EXPECT_EQ(*PythonIntFromString(" \u0663\u00a0\u3000"), 3);
}

TEST(PythonIntOfCellAboveInt64Test, OnlyTheUint64Range) {
  EXPECT_EQ(PythonIntOfCellAboveInt64(Cell(std::string("9223372036854775808"))),
            uint64_t{1} << 63);
  EXPECT_EQ(PythonIntOfCellAboveInt64(Cell(std::string(" 18446744073709551615"))),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(PythonIntOfCellAboveInt64(Cell(1e19)), uint64_t{10000000000000000000u});
  for (const Cell& cell : {Cell(std::string("9223372036854775807")),
                           Cell(std::string("18446744073709551616")),
                           Cell(std::string("-9223372036854775809")), Cell(std::string("x")),
                           Cell(1.8446744073709552e19), Cell(9.2e18), Cell(int64_t{5}), Cell(true),
                           Cell(std::numeric_limits<double>::infinity()), Cell()}) {
    EXPECT_EQ(PythonIntOfCellAboveInt64(cell), std::nullopt);
  }
}

}  // namespace
}  // namespace mlebench
