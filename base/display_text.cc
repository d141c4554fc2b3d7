#include "base/display_text.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/utf8.h"

namespace mlebench {
namespace {

// Characters shown as "\uXXXX" by both escapers: they act on a terminal or
// on the text around them without showing themselves.
bool IsHiddenActor(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0x061C || c == 0x200E ||
         c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0xFFFE || c == 0xFFFF;
}

// A character beyond ASCII, as both escapers show it.
void AppendCharacter(char32_t code, std::string_view bytes, std::string& out) {
  if (IsHiddenActor(code)) {
    absl::StrAppendFormat(&out, "\\u%04x", static_cast<uint32_t>(code));
  } else {
    out.append(bytes);
  }
}

void AppendByteEscape(unsigned char byte, std::string& out) {
  absl::StrAppendFormat(&out, "\\x%02x", byte);
}

// Walks `text` a character at a time: `ascii(byte)` for bytes below 0x80,
// `other(code point, bytes)` for the rest, `invalid(byte)` for a byte that
// does not start a UTF-8 sequence. Stops after `max_bytes` (0: never) at a
// character boundary; returns where it stopped.
template <typename Ascii, typename Other, typename Invalid>
size_t Walk(std::string_view text, size_t max_bytes, Ascii ascii, Other other, Invalid invalid) {
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = pos;
    const auto byte = static_cast<unsigned char>(text[pos]);
    size_t length = 1;
    if (byte >= 0x80) {
      length = Utf8SequenceLength(text, pos);
      if (length == 0) length = 1;
    }
    if (max_bytes > 0 && start + length > max_bytes) return start;
    if (byte < 0x80) {
      ascii(byte);
      ++pos;
      continue;
    }
    const std::optional<char32_t> code = DecodeUtf8At(text, pos);
    if (!code.has_value()) {
      invalid(byte);
      ++pos;
      continue;
    }
    other(*code, text.substr(start, pos - start));
  }
  return pos;
}

}  // namespace

std::string EscapeForConsole(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(text.size());
  const size_t shown = Walk(
      text, max_bytes,
      [&](unsigned char c) {
        switch (c) {
          case '\\': out += "\\\\"; return;
          case '\n': out += "\\n"; return;
          case '\r': out += "\\r"; return;
          case '\t': out += "\\t"; return;
          default: break;
        }
        if (c < 0x20 || c == 0x7F) {
          AppendByteEscape(c, out);
        } else {
          out.push_back(static_cast<char>(c));
        }
      },
      [&](char32_t code, std::string_view bytes) { AppendCharacter(code, bytes, out); },
      [&](unsigned char byte) { AppendByteEscape(byte, out); });
  if (shown < text.size()) absl::StrAppend(&out, "... (", text.size() - shown, " more bytes)");
  return out;
}

std::string EscapeForXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  Walk(
      text, 0,
      [&](unsigned char c) {
        switch (c) {
          case '&': out += "&amp;"; return;
          case '<': out += "&lt;"; return;
          case '>': out += "&gt;"; return;
          case '"': out += "&quot;"; return;
          case '\'': out += "&apos;"; return;
          case '\n': out += "&#10;"; return;
          case '\r': out += "&#13;"; return;
          case '\t': out += "&#9;"; return;
          default: break;
        }
        if (c < 0x20 || c == 0x7F) {
          AppendByteEscape(c, out);
        } else {
          out.push_back(static_cast<char>(c));
        }
      },
      [&](char32_t code, std::string_view bytes) { AppendCharacter(code, bytes, out); },
      [&](unsigned char byte) { AppendByteEscape(byte, out); });
  return out;
}

}  // namespace mlebench
