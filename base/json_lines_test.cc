#include "base/json_lines.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

Table ReadOk(std::string_view data) {
  absl::StatusOr<Table> table = ReadJsonLinesString(data, "answers.jsonl");
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *table : Table();
}

void ExpectError(std::string_view data, std::string_view needle) {
  absl::StatusOr<Table> table = ReadJsonLinesString(data, "answers.jsonl");
  ASSERT_FALSE(table.ok()) << "parsed: " << data;
  EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(table.status().message()).find(std::string(needle)), std::string::npos)
      << table.status();
}

TEST(ReadJsonLinesTest, ScalarsNestedValuesAndColumnOrder) {
  const Table table = ReadOk(
      "{\"id\":\"a\",\"n\":3,\"x\":1.5,\"ok\":true,\"nested\":{\"k\": [1, \"]\"]}}\n"
      "{\"n\":-4,\"id\":\"b\",\"extra\":null,\"x\":1e2,\"ok\":false,\"nested\":[]}\n");
  ASSERT_EQ(table.num_rows(), 2u);
  ASSERT_EQ(table.ColumnNames(),
            (std::vector<std::string>{"id", "n", "x", "ok", "nested", "extra"}));
  for (const Column& column : table.columns()) EXPECT_EQ(column.dtype, Dtype::kObject);
  EXPECT_EQ(table.columns()[0].cells[1], Cell(std::string("b")));
  EXPECT_EQ(table.columns()[1].cells[0], Cell(int64_t{3}));
  EXPECT_EQ(table.columns()[1].cells[1], Cell(int64_t{-4}));
  EXPECT_EQ(table.columns()[2].cells[0], Cell(1.5));
  EXPECT_EQ(table.columns()[2].cells[1], Cell(100.0));
  EXPECT_EQ(table.columns()[3].cells[0], Cell(true));
  EXPECT_EQ(table.columns()[3].cells[1], Cell(false));
  // Nested values keep their exact text, spaces included.
  EXPECT_EQ(table.columns()[4].cells[0], Cell(std::string("{\"k\": [1, \"]\"]}")));
  EXPECT_EQ(table.columns()[4].cells[1], Cell(std::string("[]")));
  // A key first seen on line 2 is missing on line 1; null is missing.
  EXPECT_TRUE(IsMissing(table.columns()[5].cells[0]));
  EXPECT_TRUE(IsMissing(table.columns()[5].cells[1]));
}

TEST(ReadJsonLinesTest, KeyAbsentFromALaterLineIsMissing) {
  const Table table = ReadOk("{\"a\":1,\"b\":2}\n{\"a\":3}\n{\"b\":4}");
  ASSERT_EQ(table.num_rows(), 3u);
  EXPECT_TRUE(IsMissing(table.columns()[1].cells[1]));
  EXPECT_TRUE(IsMissing(table.columns()[0].cells[2]));
  EXPECT_EQ(table.columns()[1].cells[2], Cell(int64_t{4}));
}

TEST(ReadJsonLinesTest, StringEscapesAreDecoded) {
  const Table table = ReadOk("{\"s\":\"q\\\"b\\\\s\\/n\\n\\u00e9\\ud83d\\ude00\\ud800x\"}\r\n");
  EXPECT_EQ(table.columns()[0].cells[0],
            Cell(std::string("q\"b\\s/n\n\xC3\xA9\xF0\x9F\x98\x80\xED\xA0\x80x")));
}

TEST(ReadJsonLinesTest, BlankLinesAndEmptyInput) {
  EXPECT_EQ(ReadOk("").num_rows(), 0u);
  EXPECT_EQ(ReadOk("\n  \n").num_columns(), 0u);
  const Table table = ReadOk("\n{\"a\":1}\n\n{\"a\":2}\n");
  EXPECT_EQ(table.num_rows(), 2u);
  EXPECT_EQ(ReadOk("{}\n{}\n").num_rows(), 0u);  // no keys: no columns, so no rows
}

TEST(ReadJsonLinesTest, MalformedLinesAreErrorsWithTheLineNumber) {
  ExpectError("{\"a\":1}\n{\"a\":}\n", "answers.jsonl: line 2");
  ExpectError("[1,2]\n", "expected a JSON object");
  ExpectError("\"text\"\n", "expected a JSON object");
  ExpectError("{\"a\":1} x\n", "extra text");
  ExpectError("{\"a\":1,\"a\":2}\n", "repeated key");
  ExpectError("{\"a\":[1,2}\n", "expected ',' or ']'");
  ExpectError("{\"a\":{\"b\" 1}}\n", "expected ':'");
  ExpectError("{\"a\":\"unterminated}\n", "unterminated string");
  ExpectError("{\"a\":\"bad\\q\"}\n", "invalid escape");
  ExpectError("{\"a\":\"\\u12g4\"}\n", "invalid \\u escape");
  ExpectError("{\"a\":\"tab\there\"}\n", "control character");
  ExpectError("{\"a\":01}\n", "expected ',' or '}'");
  ExpectError("{\"a\":1.}\n", "expected digits");
  ExpectError("{\"a\":1e}\n", "exponent");
  ExpectError("{\"a\":99999999999999999999}\n", "int64");
  ExpectError("{\"a\":tru}\n", "expected a value");
  ExpectError("{\"a\":1\n", "expected ',' or '}'");
  ExpectError("{\"a\":" + std::string(2000, '[') + std::string(2000, ']') + "}\n",
              "nesting too deep");
}

TEST(ReadJsonLinesTest, FileReadingAndMissingFile) {
  const std::string path = std::string(::testing::TempDir()) + "/answers.jsonl";
  std::ofstream(path) << "{\"a\":\"x\"}\n";
  absl::StatusOr<Table> table = ReadJsonLinesFile(path);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->num_rows(), 1u);
  EXPECT_FALSE(ReadJsonLinesFile(path + ".absent").ok());
}

}  // namespace
}  // namespace mlebench
