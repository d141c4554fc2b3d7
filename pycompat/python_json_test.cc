#include "pycompat/python_json.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

JsonValue ParseOrDie(std::string_view text) {
  absl::StatusOr<JsonValue> value = ParseJson(text);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status();
  return value.ok() ? *value : JsonValue();
}

std::string Dump(const JsonValue& value, std::optional<int> indent = std::nullopt) {
  absl::StatusOr<std::string> text = DumpJson(value, indent);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

// json.dumps(json.loads(text)).
std::string RoundTrip(std::string_view text, std::optional<int> indent = std::nullopt) {
  return Dump(ParseOrDie(text), indent);
}

void ExpectParseError(std::string_view text, std::string_view message) {
  absl::StatusOr<JsonValue> value = ParseJson(text);
  ASSERT_FALSE(value.ok()) << text;
  EXPECT_EQ(value.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(value.status().message()), HasSubstr(std::string(message))) << text;
}

TEST(PythonJsonTest, ScalarsKeepPythonTypes) {
  EXPECT_EQ(ParseOrDie("null").type, JsonValue::Type::kNull);
  EXPECT_EQ(ParseOrDie(" true ").boolean, true);
  EXPECT_EQ(ParseOrDie("\tfalse\r\n").type, JsonValue::Type::kBool);
  const JsonValue big = ParseOrDie("-123456789012345678901234567890");
  EXPECT_EQ(big.type, JsonValue::Type::kInt);
  EXPECT_EQ(big.text, "-123456789012345678901234567890");
  EXPECT_EQ(big.AsInt64(), std::nullopt);
  EXPECT_EQ(ParseOrDie("-0").text, "0");  // int('-0') is 0
  EXPECT_EQ(ParseOrDie("9223372036854775807").AsInt64(), 9223372036854775807);
  EXPECT_EQ(ParseOrDie("9223372036854775808").AsInt64(), std::nullopt);
  EXPECT_EQ(ParseOrDie("1.0").type, JsonValue::Type::kFloat);
  EXPECT_EQ(ParseOrDie("1E2").number, 100.0);
  EXPECT_EQ(ParseOrDie("1e400").number, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::signbit(ParseOrDie("-0.0").number));
  EXPECT_TRUE(std::isnan(ParseOrDie("NaN").number));
  EXPECT_EQ(ParseOrDie("-Infinity").number, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(ParseOrDie("\"a\\u00e9\\ud83d\\ude00\"").text, "a\xc3\xa9\xf0\x9f\x98\x80");
  // A lone surrogate, kept as its 3-byte form.
  EXPECT_EQ(ParseOrDie("\"\\ud800x\"").text, "\xed\xa0\x80x");
  EXPECT_EQ(ParseOrDie("\"\\udc00\\ud800 \"").text, "\xed\xb0\x80\xed\xa0\x80 ");
}

TEST(PythonJsonTest, DumpsLikePython) {
  EXPECT_EQ(RoundTrip("[1, 2.50, 1e16, 1e-5, -0.0, 1e400, -1e400, NaN, true, null]"),
            "[1, 2.5, 1e+16, 1e-05, -0.0, Infinity, -Infinity, NaN, true, null]");
  EXPECT_EQ(RoundTrip("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0001\\u007f\\u00e9\\u20ac\""),
            "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u007f\\u00e9\\u20ac\"");
  EXPECT_EQ(RoundTrip("\"\xf0\x9f\x98\x80 \xc3\xa9\""), "\"\\ud83d\\ude00 \\u00e9\"");
  EXPECT_EQ(RoundTrip("\"\\ud800\""), "\"\\ud800\"");
  EXPECT_EQ(RoundTrip("{}"), "{}");
  EXPECT_EQ(RoundTrip("[]", 4), "[]");
  EXPECT_EQ(RoundTrip("{\"b\": [], \"a\": {\"c\": [1, {}]}}", 4),
            "{\n"
            "    \"b\": [],\n"
            "    \"a\": {\n"
            "        \"c\": [\n"
            "            1,\n"
            "            {}\n"
            "        ]\n"
            "    }\n"
            "}");
  EXPECT_EQ(RoundTrip("[1,[2]]", 0), "[\n1,\n[\n2\n]\n]");
  EXPECT_EQ(RoundTrip("[1,[2]]", -3), "[\n1,\n[\n2\n]\n]");
  EXPECT_EQ(RoundTrip("{\"k\":[1,2],\"v\":{}}"), "{\"k\": [1, 2], \"v\": {}}");
}

TEST(PythonJsonTest, ObjectsKeepFirstPositionAndLastValue) {
  const JsonValue object = ParseOrDie("{\"b\": 1, \"a\": 2, \"b\": 3}");
  ASSERT_EQ(object.members.size(), 2u);
  EXPECT_EQ(object.members[0].key, "b");
  EXPECT_EQ(object.members[0].value.text, "3");
  EXPECT_EQ(object.Find("a")->text, "2");
  EXPECT_EQ(object.Find("c"), nullptr);
  EXPECT_EQ(Dump(object), "{\"b\": 3, \"a\": 2}");
}

TEST(PythonJsonTest, BuildsValues) {
  JsonValue object = JsonValue::Object();
  object.Set("id", JsonValue::String("t3_x"));
  object.Set("n", JsonValue::Int(-5));
  object.Set("xs", JsonValue::Array({JsonValue::Float(0.1), JsonValue::Bool(false)}));
  object.Set("id", JsonValue::String("t3_y"));
  EXPECT_EQ(Dump(object), "{\"id\": \"t3_y\", \"n\": -5, \"xs\": [0.1, false]}");
  EXPECT_EQ(ParseOrDie(Dump(object)), object);
  EXPECT_FALSE(ParseOrDie("[0.0]") == ParseOrDie("[-0.0]"));
  EXPECT_EQ(ParseOrDie("[NaN]"), ParseOrDie("[NaN]"));
  EXPECT_FALSE(ParseOrDie("1") == ParseOrDie("1.0"));
}

TEST(PythonJsonTest, RejectsWhatPythonRejects) {
  ExpectParseError("", "Expecting value: line 1 column 1 (char 0)");
  ExpectParseError("  ", "Expecting value: line 1 column 3 (char 2)");
  ExpectParseError("[1,]", "Expecting value: line 1 column 4 (char 3)");
  ExpectParseError("{\"a\": 1,}", "Expecting property name enclosed in double quotes");
  ExpectParseError("{\"a\" 1}", "Expecting ':' delimiter");
  ExpectParseError("[1 2]", "Expecting ',' delimiter");
  ExpectParseError("[1\n, 2 3]", "Expecting ',' delimiter: line 2 column 5 (char 7)");
  ExpectParseError("\"\xc3\xa9\" x", "Extra data: line 1 column 5 (char 4)");
  for (std::string_view bad : {"01", "1.", ".5", "+1", "1e", "1.e3", "-", "nan", "inf", "Nan",
                               "nul", "True", "[1,2", "{", "'a'", "0x10", "1_000", "- 1"}) {
    EXPECT_FALSE(ParseJson(bad).ok()) << bad;
  }
  ExpectParseError("\"abc", "Unterminated string starting at: line 1 column 1 (char 0)");
  ExpectParseError("\"a\tb\"", "Invalid control character at: line 1 column 3 (char 2)");
  ExpectParseError("\"\\x41\"", "Invalid \\escape");
  ExpectParseError("\"\\u12\"", "Invalid \\uXXXX escape");
  ExpectParseError("\"\\u12g4\"", "Invalid \\uXXXX escape");
  ExpectParseError("\"\\ud800\\u12x4\"", "Invalid \\uXXXX escape");
  ExpectParseError("\xef\xbb\xbf[]", "Unexpected UTF-8 BOM");
  ExpectParseError("[\"\xff\"]", "can't decode byte 0xff in position 2: invalid start byte");
  ExpectParseError("\"\xed\xa0\x80\"", "invalid continuation byte");  // encoded surrogate
  ExpectParseError("\"\xc3\"", "invalid continuation byte");
  ExpectParseError("\"\xc3", "unexpected end of data");
  ExpectParseError(std::string(4301, '7'), "Exceeds the limit (4300 digits)");
  EXPECT_TRUE(ParseJson("-" + std::string(4300, '7')).ok());
}

TEST(PythonJsonTest, DeepNestingIsAnErrorNotACrash) {
  const int deep = kMaxJsonDepth + 1;
  ExpectParseError(std::string(deep, '[') + std::string(deep, ']'), "Nested deeper than");
  EXPECT_TRUE(ParseJson(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']')).ok());
  EXPECT_FALSE(ParseJson(std::string(1'000'000, '[')).ok());
}

TEST(PythonJsonTest, DumpRejectsMalformedValues) {
  EXPECT_FALSE(DumpJson(JsonValue::String("\xff")).ok());
  EXPECT_FALSE(DumpJson(JsonValue::String("\xc3")).ok());
  JsonValue bad_int = JsonValue::Int(0);
  for (const std::string& text :
       std::vector<std::string>{"", "-", "01", "-0", "1.5", "1e3", std::string(4301, '1')}) {
    bad_int.text = text;
    EXPECT_FALSE(DumpJson(bad_int).ok()) << text;
  }
  JsonValue nested = JsonValue::Array({JsonValue::Object()});
  nested.items[0].Set("\xe2\x82", JsonValue::Null());
  EXPECT_FALSE(DumpJson(nested, 4).ok());
}

}  // namespace
}  // namespace mlebench
