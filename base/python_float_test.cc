#include "base/python_float.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Expected strings are CPython's repr() of the same doubles.
TEST(FormatPythonFloatTest, MatchesPythonRepr) {
  struct Case {
    double value;
    const char* repr;
  };
  const Case cases[] = {
      {1.0, "1.0"},
      {-0.0, "-0.0"},
      {0.0, "0.0"},
      {1e-05, "1e-05"},
      {0.0001, "0.0001"},
      {0.00012345, "0.00012345"},
      {2.5e-05, "2.5e-05"},
      {1e-07, "1e-07"},
      {1e+16, "1e+16"},
      {9999999999999998.0, "9999999999999998.0"},
      {1234567890123456.0, "1234567890123456.0"},
      {12345678901234567.0, "1.2345678901234568e+16"},
      {999999999999999.9, "999999999999999.9"},
      {5e-324, "5e-324"},
      {2.2250738585072014e-308, "2.2250738585072014e-308"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {0.1, "0.1"},
      {0.1 + 0.2, "0.30000000000000004"},
      {1.0 / 3.0, "0.3333333333333333"},
      {-1.5, "-1.5"},
      {100.0, "100.0"},
      {1e22, "1e+22"},
      {123456789.0, "123456789.0"},
      {9007199254740993.0, "9007199254740992.0"},
      {1e100, "1e+100"},
      {-1.25e-100, "-1.25e-100"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FormatPythonFloat(c.value), c.repr) << c.repr;
  }
}

TEST(FormatPythonFloatTest, NonFinite) {
  EXPECT_EQ(FormatPythonFloat(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatPythonFloat(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(FormatPythonFloat(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatPythonFloat(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(FormatPythonFloatTest, ShortestRoundTrip) {
  // Every formatted value parses back to the same double.
  for (double v = 1e-300; v < 1e300; v *= 7.3) {
    EXPECT_EQ(std::stod(FormatPythonFloat(v)), v) << FormatPythonFloat(v);
  }
}

// Expected values are CPython's round(value, ndigits).
TEST(RoundPythonTest, MatchesPythonRound) {
  struct Case {
    double value;
    int ndigits;
    double expected;
  };
  const Case cases[] = {
      // Ties on the exact binary value: 2.675 is just below 2.675.
      {2.675, 2, 2.67},
      {1.005, 2, 1.0},
      {0.285, 2, 0.28},
      {1.115, 2, 1.11},
      {0.045, 2, 0.04},
      {10.675, 2, 10.68},
      // Exact ties round half to even.
      {0.125, 2, 0.12},
      {0.375, 2, 0.38},
      {2.5, 0, 2.0},
      {3.5, 0, 4.0},
      {-2.5, 0, -2.0},
      {0.5, 0, 0.0},
      {0.49999999999999994, 0, 0.0},
      // round(x, 5) as graders use it.
      {1.234565, 5, 1.23456},
      {-1.234565, 5, -1.23456},
      {0.000015, 5, 2e-05},
      {0.000025, 5, 3e-05},
      {0.000005, 5, 1e-05},
      {-0.000005, 5, -1e-05},
      {1e-06, 5, 0.0},
      {123456.123455, 5, 123456.12345},
      {123.456789, 5, 123.45679},
      {0.1234549999999, 5, 0.12345},
      {0.123455, 5, 0.12345},
      {0.123465, 5, 0.12347},
      {0.3, 5, 0.3},
      {1e20, 5, 1e20},
      {1.7976931348623157e308, 5, 1.7976931348623157e308},
      {5e-324, 5, 0.0},
      {1.23456785, 7, 1.2345678},
      {0.1 + 0.2, 15, 0.3},
      {0.1 + 0.2, 16, 0.3},
      // Negative ndigits.
      {1234.5, -1, 1230.0},
      {1250.0, -2, 1200.0},
      {1350.0, -2, 1400.0},
      {1249.9999, -2, 1200.0},
      {1250.4, -2, 1300.0},
      {-1250.4, -2, -1300.0},
      {-1250.0, -2, -1200.0},
      {7.0, -1, 10.0},
      {5.0, -1, 0.0},
      {15.0, -1, 20.0},
      {25.0, -1, 20.0},
      {2.5, -1, 0.0},
      {950.0, -3, 1000.0},
      {500.0, -3, 0.0},
      {1500.0, -3, 2000.0},
      {99999.5, -5, 100000.0},
      {9.5e15, -16, 1e16},
      {5e15, -16, 0.0},
      {1.5e16, -16, 2e16},
      {1.5e300, -300, 2e300},
      {1.7976931348623157e308, -300, 1.79769313e308},
      {1.2345678901234568e17, -2, 1.234567890123457e17},
      // Out-of-range ndigits.
      {2.675, 400, 2.675},
      {1e308, 323, 1e308},
      {0.5, 1000, 0.5},
      {123.456, -400, 0.0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RoundPython(c.value, c.ndigits), c.expected)
        << "round(" << FormatPythonFloat(c.value) << ", " << c.ndigits << ")";
  }
}

TEST(RoundPythonTest, SignedZerosAndNonFinite) {
  EXPECT_TRUE(std::signbit(RoundPython(-0.5, 0)));
  EXPECT_TRUE(std::signbit(RoundPython(-40.0, -2)));
  EXPECT_TRUE(std::signbit(RoundPython(-0.000001, 5)));
  EXPECT_TRUE(std::signbit(RoundPython(-123.0, -400)));
  EXPECT_FALSE(std::signbit(RoundPython(0.0, -2)));
  EXPECT_TRUE(std::isnan(RoundPython(std::numeric_limits<double>::quiet_NaN(), 5)));
  EXPECT_EQ(RoundPython(std::numeric_limits<double>::infinity(), 5),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(RoundPython(-std::numeric_limits<double>::infinity(), -3),
            -std::numeric_limits<double>::infinity());
}

// strtod's double, bit for bit (the sign of zero and NaN-free).
uint64_t StrtodBits(const std::string& text) {
  return std::bit_cast<uint64_t>(std::strtod(text.c_str(), nullptr));
}

TEST(DecimalTextToDoubleTest, AgreesWithStrtodAtTheEdges) {
  const std::string long_digits = "0." + std::string(400, '3') + "e1";
  const char* cases[] = {
      "0", "-0", "+0", "0.0", "-0.0", "0e999", "-0e-999", "1", "-1", "+1.5", ".5", "5.", "-.5",
      "1E5", "1e+5", "1e-5", "0.1", "0.30000000000000004", "9007199254740993",
      "9007199254740992.5", "123456789012345678901234567890",
      // Smallest normal, largest subnormal, and the famous slow cases.
      "2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
      "4.9406564584124654e-324", "5e-324", "2.4703282292062327e-324",
      "2.4703282292062328e-324", "1e-320",
      // Underflow to zero, overflow to infinity, and just inside.
      "1e-400", "-1e-400", "1e400", "-1e309", "1.7976931348623157e308",
      "1.7976931348623158e308", "1.7976931348623159e308", "-1.7976931348623159e308",
      "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649"
      "017977587207096330286416692887910946555547851940402630657488671505820681908902000708383"
      "676273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
      "365510704342711559699508093042880177904174497791.9999999999999",
  };
  for (const char* text : cases) {
    EXPECT_EQ(std::bit_cast<uint64_t>(DecimalTextToDouble(text)), StrtodBits(text)) << text;
  }
  EXPECT_EQ(std::bit_cast<uint64_t>(DecimalTextToDouble(long_digits)), StrtodBits(long_digits));
}

TEST(DecimalTextToDoubleTest, AgreesWithStrtodOnRandomDecimals) {
  std::mt19937_64 random(20261207);
  char text[64];
  for (int k = 0; k < 200000; ++k) {
    const uint64_t bits = random();
    const int form = k % 4;
    if (form == 0) {  // any finite double, shortest to 17 digits
      const double value = std::bit_cast<double>(bits);
      if (!std::isfinite(value)) continue;
      std::snprintf(text, sizeof(text), "%.*g", 1 + static_cast<int>(bits % 17), value);
    } else if (form == 1) {  // what a model writes: a probability
      std::snprintf(text, sizeof(text), "%.*f", 1 + static_cast<int>(bits % 19),
                    static_cast<double>(bits >> 11) / 9007199254740992.0);
    } else {  // up to 19 random digits with a random exponent across the range
      const int exponent = static_cast<int>(random() % 680) - 345;
      std::snprintf(text, sizeof(text), "%s%llu.%llue%d", form == 2 ? "-" : "",
                    static_cast<unsigned long long>(bits % 1000000000000ull),
                    static_cast<unsigned long long>(random() % 10000000ull), exponent);
    }
    ASSERT_EQ(std::bit_cast<uint64_t>(DecimalTextToDouble(text)), StrtodBits(text)) << text;
  }
}

}  // namespace
}  // namespace mlebench
