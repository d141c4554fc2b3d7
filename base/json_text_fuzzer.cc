// Fuzzes the JSON string writer (json_text.h) against the JSON-lines reader:
//  - with InvalidUtf8::kReplace it never fails; the literal is printable
//    ASCII in double quotes;
//  - with InvalidUtf8::kReject it fails exactly where kReplace changed
//    something (`out` then unchanged), and otherwise the literal, read back
//    by ReadJsonLinesString as a value, gives the input's bytes again, except
//    that a high and a low surrogate in their 3-byte forms, written as two
//    \u escapes, read back as the one character they encode together (as
//    in Python: json.loads(json.dumps("\ud83d\ude00")) == "\U0001f600").

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "absl/strings/str_cat.h"
#include "base/json_lines.h"
#include "base/json_text.h"
#include "base/testing/fuzz_support.h"

namespace {

// `text` with each 3-byte high surrogate followed by a 3-byte low surrogate
// replaced by the 4-byte UTF-8 of the character the pair encodes.
std::string CombineSurrogatePairs(std::string_view text) {
  const auto surrogate = [&](size_t i, unsigned char first_min) -> int {
    if (i + 3 > text.size() || static_cast<unsigned char>(text[i]) != 0xED) return -1;
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    const auto b2 = static_cast<unsigned char>(text[i + 2]);
    if (b1 < first_min || b1 > first_min + 0x0F || (b2 & 0xC0) != 0x80) return -1;
    return 0xD000 | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
  };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const int high = surrogate(i, 0xA0), low = surrogate(i + 3, 0xB0);
    if (high >= 0 && low >= 0) {
      const int c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
      i += 6;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view text(reinterpret_cast<const char*>(bytes), size);

  const std::string replaced = JsonString(text);
  fuzz::Check(replaced.size() >= 2 && replaced.front() == '"' && replaced.back() == '"',
              "JsonString is not a quoted literal");
  for (char c : replaced) {
    fuzz::Check(c >= 0x20 && c <= 0x7E, "JsonString wrote a byte outside printable ASCII");
  }

  std::string rejected = "prefix";
  const absl::Status status = AppendJsonString(text, rejected, InvalidUtf8::kReject);
  if (!status.ok()) {
    fuzz::Check(rejected == "prefix", "AppendJsonString changed `out` on an error");
    return 0;
  }
  fuzz::CheckSame(rejected == "prefix" + replaced, "AppendJsonString kReject and kReplace",
                  rejected.substr(6), replaced);

  const absl::StatusOr<Table> read = ReadJsonLinesString(absl::StrCat("{\"k\": ", replaced, "}"),
                                                         "json_text_fuzzer");
  fuzz::Check(read.ok(), "ReadJsonLinesString rejected what AppendJsonString wrote");
  fuzz::Check(read->num_columns() == 1 && read->num_rows() == 1, "not one cell read back");
  const auto* back = std::get_if<std::string>(&read->columns()[0].cells[0]);
  fuzz::Check(back != nullptr, "the literal did not read back as a string");
  const std::string expected = CombineSurrogatePairs(text);
  fuzz::CheckSame(*back == expected, "the input and the literal read back", expected, *back);
  return 0;
}
