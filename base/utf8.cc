#include "base/utf8.h"

#include <cstdint>
#include <cstring>

namespace mlebench {

size_t Utf8SequenceLength(std::string_view text, size_t pos, bool allow_surrogates) {
  const auto byte = [&](size_t k) -> unsigned {
    return k < text.size() ? static_cast<unsigned char>(text[k]) : 0x100u;
  };
  const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    const unsigned b = byte(k);
    return b >= lo && b <= hi;
  };
  const unsigned b0 = byte(pos);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(pos + 1) ? 2 : 0;
  if (b0 == 0xE0) return cont(pos + 1, 0xA0) && cont(pos + 2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) {
    return cont(pos + 1) && cont(pos + 2) ? 3 : 0;
  }
  if (b0 == 0xED) {
    return cont(pos + 1, 0x80, allow_surrogates ? 0xBF : 0x9F) && cont(pos + 2) ? 3 : 0;
  }
  if (b0 == 0xF0) return cont(pos + 1, 0x90) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(pos + 1) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
  if (b0 == 0xF4) return cont(pos + 1, 0x80, 0x8F) && cont(pos + 2) && cont(pos + 3) ? 4 : 0;
  return 0;
}

std::optional<char32_t> DecodeUtf8At(std::string_view text, size_t& pos, bool allow_surrogates) {
  const size_t length = Utf8SequenceLength(text, pos, allow_surrogates);
  if (length == 0) return std::nullopt;
  const unsigned char lead = static_cast<unsigned char>(text[pos]);
  char32_t c = length == 1 ? lead : lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    c = (c << 6) | (static_cast<unsigned char>(text[pos + k]) & 0x3F);
  }
  pos += length;
  return c;
}

namespace {
// The length of `text`'s leading run of ASCII bytes, rounded down to whole
// 8-byte words.
size_t AsciiWordsPrefix(std::string_view text, size_t pos) {
  constexpr uint64_t kHighBits = 0x8080808080808080u;
  while (pos + 8 <= text.size()) {
    uint64_t word;
    std::memcpy(&word, text.data() + pos, 8);
    if ((word & kHighBits) != 0) break;
    pos += 8;
  }
  return pos;
}
}  // namespace

bool IsAscii(std::string_view text) {
  for (size_t pos = AsciiWordsPrefix(text, 0); pos < text.size(); ++pos) {
    if (static_cast<unsigned char>(text[pos]) >= 0x80) return false;
  }
  return true;
}

bool IsValidUtf8(std::string_view text) {
  for (size_t pos = 0; pos < text.size();) {
    pos = AsciiWordsPrefix(text, pos);
    if (pos == text.size()) break;
    const size_t length = Utf8SequenceLength(text, pos);
    if (length == 0) return false;
    pos += length;
  }
  return true;
}

std::optional<std::u32string> DecodeUtf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    std::optional<char32_t> c = DecodeUtf8At(text, pos);
    if (!c.has_value()) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

void AppendUtf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::string EncodeUtf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t c : text) AppendUtf8(c, out);
  return out;
}

}  // namespace mlebench
