#include "base/json_text.h"

#include <optional>

#include "absl/strings/str_format.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

constexpr std::string_view kEscapedChars = "\"\\\b\f\n\r\t";
constexpr std::string_view kEscapeLetters = "\"\\bfnrt";

void AppendCodeUnit(char32_t unit, std::string& out) {
  absl::StrAppendFormat(&out, "\\u%04x", static_cast<uint32_t>(unit));
}

}  // namespace

absl::Status AppendJsonString(std::string_view text, std::string& out, InvalidUtf8 invalid) {
  std::string quoted = "\"";
  size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      ++pos;
      if (const size_t k = kEscapedChars.find(static_cast<char>(byte));
          k != std::string_view::npos) {
        quoted.push_back('\\');
        quoted.push_back(kEscapeLetters[k]);
      } else if (byte < 0x20 || byte == 0x7F) {
        AppendCodeUnit(byte, quoted);
      } else {
        quoted.push_back(static_cast<char>(byte));
      }
      continue;
    }
    const size_t start = pos;
    std::optional<char32_t> code = DecodeUtf8At(text, pos, /*allow_surrogates=*/true);
    if (!code.has_value()) {
      if (invalid == InvalidUtf8::kReject) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "JSON string holds invalid UTF-8 (byte 0x%02x at offset %d)", byte, start));
      }
      code = 0xFFFD;
      ++pos;
    }
    if (*code >= 0x10000) {
      const char32_t v = *code - 0x10000;
      AppendCodeUnit(0xD800 | (v >> 10), quoted);
      AppendCodeUnit(0xDC00 | (v & 0x3FF), quoted);
    } else {
      AppendCodeUnit(*code, quoted);
    }
  }
  quoted.push_back('"');
  out += quoted;
  return absl::OkStatus();
}

std::string JsonString(std::string_view text) {
  std::string out;
  // kReplace never fails.
  AppendJsonString(text, out, InvalidUtf8::kReplace).IgnoreError();
  return out;
}

}  // namespace mlebench
