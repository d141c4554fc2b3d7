// Differential test of pandas_json against pandas 2.2.2 (upstream's pinned
// version) on many random doubles and strings.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "pycompat/pandas_json.h"
#include "pycompat/python_json.h"

namespace mlebench {
namespace {

std::string HexFloat(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  std::string s = buf;
  if (s == "inf") return "inf";
  if (s == "-inf") return "-inf";
  if (s == "nan" || s == "-nan") return "nan";
  return s;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out.empty() ? "-" : out;
}

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

double RandomDouble(SyntheticRng& rng) {
  switch (rng.UniformInt(uint64_t{8})) {
    case 0: return rng.Uniform();
    case 1: return rng.Uniform(-1, 1) * std::pow(10.0, static_cast<double>(rng.UniformInt(int64_t{-20}, int64_t{20})));
    case 2: {  // exact ties and near-ties at the 10th decimal
      const double k = static_cast<double>(rng.UniformInt(int64_t{0}, int64_t{3000000000}));
      return (k + 0.5) / 1e10 + rng.UniformInt(int64_t{0}, int64_t{3}) + (rng.Bernoulli(0.5) ? 0 : 1e-17);
    }
    case 3: return static_cast<double>(rng.UniformInt(int64_t{-100000}, int64_t{100000})) / 8.0;
    case 4: {  // any finite bit pattern
      uint64_t bits = rng.Next();
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return std::isfinite(v) ? v : 1.5;
    }
    case 5: return std::round(rng.Uniform(0, 5) * 1e4) / 1e4;  // typical measured values
    case 6: return rng.Uniform(9.9e15, 1.01e16);
    default: return rng.Normal(0, 1) * 1e-14;
  }
}

TEST(PandasJsonDiffTest, MatchesPandasToJson) {
  SyntheticRng rng(20261129);
  std::vector<double> values = {0.0, -0.0, 1.0, 0.5, 1.5, 2.5, 0.05, 0.15, 1e16, 1e16 - 2, 1e-15,
                                9.99999999999e-16, 0.99999999999, 12345678.123456789,
                                std::nan(""), INFINITY, -INFINITY, 1e300, -5e-324};
  while (values.size() < 6000) values.push_back(RandomDouble(rng));
  std::vector<std::string> strings = {"", "a/b", "\"q\"\\", "\n\r\t\b\f\x01\x1f\x7f", "<&>"};
  const std::vector<std::pair<uint32_t, uint32_t>> ranges = {
      {0x20, 0x7E}, {0x00, 0x1F}, {0xA0, 0x17F}, {0x400, 0x4FF}, {0x4E00, 0x9FFF},
      {0xE000, 0xFFFD}, {0x1F300, 0x1F64F}, {0x10000, 0x10FFFF}};
  while (strings.size() < 1500) {
    std::string s;
    const int n = static_cast<int>(rng.UniformInt(int64_t{0}, int64_t{12}));
    for (int i = 0; i < n; ++i) {
      const auto& [lo, hi] = ranges[rng.UniformInt(ranges.size())];
      AppendUtf8(static_cast<uint32_t>(rng.UniformInt(int64_t{lo}, int64_t{hi})), s);
    }
    strings.push_back(s);
  }

  std::string input;
  for (double v : values) input += "f " + HexFloat(v) + "\n";
  for (const std::string& s : strings) input += "s " + Hex(s) + "\n";

  std::vector<std::vector<JsonValue>> float_rows, string_rows;
  for (double v : values) {
    float_rows.push_back({JsonValue::Float(v),
                          JsonValue::Array({JsonValue::Float(v), JsonValue::Float(-v)})});
  }
  for (const std::string& s : strings) string_rows.push_back({JsonValue::String(s)});
  // Column names must be unique: the first 50 distinct strings.
  std::vector<std::string> names;
  for (const std::string& s : strings) {
    if (names.size() < 50 && std::find(names.begin(), names.end(), s) == names.end()) {
      names.push_back(s);
    }
  }
  std::vector<JsonValue> ones(50, JsonValue::Int(1));
  const std::string expected = PandasToJsonRecordsLines({"x", "l"}, float_rows) +
                               PandasToJsonRecordsLines({"s"}, string_rows) +
                               PandasToJsonRecordsLines(names, {ones});

  const std::filesystem::path dir = testing::NewTempDir("pandas_json");
  ASSERT_TRUE(WriteStringToFile(dir / "in.txt", input).ok());
  testing::CommandResult result = testing::RunCommand(
      {"/bin/sh", "-c",
       testing::ReferencePython() + " pycompat/pandas_json_diff_test.py < " + (dir / "in.txt").string()});
  ASSERT_EQ(result.exit_code, 0) << result.output.substr(0, 2000);
  // Compare line by line for readable failures.
  size_t a = 0, b = 0, line = 0, mismatches = 0;
  while (a < expected.size() && b < result.output.size() && mismatches < 20) {
    const size_t ea = expected.find('\n', a), eb = result.output.find('\n', b);
    const std::string ours = expected.substr(a, ea - a), theirs = result.output.substr(b, eb - b);
    if (ours != theirs) {
      ++mismatches;
      ADD_FAILURE() << "line " << line << ": ours " << ours << " pandas " << theirs;
    }
    a = ea + 1;
    b = eb + 1;
    ++line;
  }
  EXPECT_EQ(expected.size(), result.output.size());
}

TEST(PandasJsonTest, Basics) {
  EXPECT_EQ(PandasJsonDouble(1.0), "1.0");
  EXPECT_EQ(PandasJsonDouble(-2.5), "-2.5");
  EXPECT_EQ(PandasJsonDouble(0.1234567891234), "0.1234567891");
  EXPECT_EQ(PandasJsonDouble(1e-16), "1e-16");
  EXPECT_EQ(PandasJsonDouble(std::nan("")), "null");
  EXPECT_EQ(PandasJsonString("é/"), "\"\\u00e9\\/\"");
  EXPECT_EQ(PandasToJsonRecordsLines({"a"}, {}), "\n");
  EXPECT_EQ(PandasToJsonRecordsLines({"a", "b"}, {{JsonValue::Int(3), JsonValue::Null()}}),
            "{\"a\":3,\"b\":null}\n");
}

}  // namespace
}  // namespace mlebench
