#include "base/json_text.h"

#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Expected texts are what Python 3's json.dumps prints for the same string.
TEST(JsonTextTest, EscapesAsPythonJsonDumps) {
  EXPECT_EQ(JsonString(""), "\"\"");
  EXPECT_EQ(JsonString("a/b \"q\" \\"), "\"a/b \\\"q\\\" \\\\\"");
  EXPECT_EQ(JsonString("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(JsonString(std::string("\x00\x01\x1f\x7f", 4)), "\"\\u0000\\u0001\\u001f\\u007f\"");
  EXPECT_EQ(JsonString("\xc3\xa9\xe2\x82\xac"), "\"\\u00e9\\u20ac\"");    // é€
  EXPECT_EQ(JsonString("\xf0\x9f\x98\x80"), "\"\\ud83d\\ude00\"");        // 😀
  EXPECT_EQ(JsonString("\xed\xa0\x80"), "\"\\ud800\"");                   // surrogatepass
}

TEST(JsonTextTest, InvalidBytesAreReplacedOrRejected) {
  EXPECT_EQ(JsonString("a\xff" "b\xc3"), "\"a\\ufffdb\\ufffd\"");
  std::string out = "kept";
  absl::Status status = AppendJsonString("x\xc0\x80", out, InvalidUtf8::kReject);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("byte 0xc0 at offset 1"), std::string::npos) << status;
  EXPECT_EQ(out, "kept");
}

}  // namespace
}  // namespace mlebench
