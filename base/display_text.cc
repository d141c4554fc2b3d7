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

// How an escaper shows the ASCII characters it treats specially; nullptr
// for any other (printable ones kept, controls as "\xNN").
using SpecialAscii = const char* (*)(unsigned char c);

const char* ConsoleSpecial(unsigned char c) {
  switch (c) {
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: return nullptr;
  }
}

const char* XmlSpecial(unsigned char c) {
  switch (c) {
    case '&': return "&amp;";
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    case '\n': return "&#10;";
    case '\r': return "&#13;";
    case '\t': return "&#9;";
    default: return nullptr;
  }
}

// Appends `text` escaped to `out`, a character at a time: ASCII through
// `special`, other characters by AppendCharacter, bytes that are not UTF-8
// as "\xNN". Stops before the character that would pass `max_bytes` of
// `text` (0: never); returns how many bytes of `text` it showed.
size_t Escape(std::string_view text, size_t max_bytes, SpecialAscii special, std::string& out) {
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
      if (const char* replacement = special(byte)) {
        out += replacement;
      } else if (byte < 0x20 || byte == 0x7F) {
        AppendByteEscape(byte, out);
      } else {
        out.push_back(static_cast<char>(byte));
      }
      ++pos;
      continue;
    }
    const std::optional<char32_t> code = DecodeUtf8At(text, pos);
    if (!code.has_value()) {
      AppendByteEscape(byte, out);
      ++pos;
      continue;
    }
    AppendCharacter(*code, text.substr(start, pos - start), out);
  }
  return pos;
}

}  // namespace

std::string EscapeForConsole(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(text.size());
  const size_t shown = Escape(text, max_bytes, ConsoleSpecial, out);
  if (shown < text.size()) absl::StrAppend(&out, "... (", text.size() - shown, " more bytes)");
  return out;
}

std::string EscapeForXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  Escape(text, 0, XmlSpecial, out);
  return out;
}

}  // namespace mlebench
