// UTF-8 as Python's strict codec reads it: no overlong forms, no surrogates
// (U+D800..U+DFFF), nothing above U+10FFFF. One decoder for the CSV reader,
// the formats, the Python emulation and the graders.
#ifndef MLEBENCH_BASE_UTF8_H_
#define MLEBENCH_BASE_UTF8_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mlebench {

// Length (1..4) of the well-formed sequence starting at text[pos], or 0 when
// the bytes there (or the end of `text`) make it invalid. `pos` < size. With
// `allow_surrogates`, the 3-byte forms of U+D800..U+DFFF count as well formed
// (the "generalised" UTF-8 Python's "surrogatepass" reads and writes).
size_t Utf8SequenceLength(std::string_view text, size_t pos, bool allow_surrogates = false);

// The code point at text[pos], advancing `pos` past it; nullopt (and `pos`
// unchanged) where the bytes are not valid UTF-8.
std::optional<char32_t> DecodeUtf8At(std::string_view text, size_t& pos,
                                     bool allow_surrogates = false);

bool IsValidUtf8(std::string_view text);

// Whether every byte is below 0x80 (ASCII, where a byte is a code point).
// Eight bytes at a time.
bool IsAscii(std::string_view text);

// The whole text as code points; nullopt when any byte is invalid.
std::optional<std::u32string> DecodeUtf8(std::string_view text);

// Appends one code point (<= U+10FFFF). Surrogates get their 3-byte form, as
// Python's "surrogatepass" writes them; strict decoding rejects that form.
void AppendUtf8(char32_t code_point, std::string& out);

std::string EncodeUtf8(std::u32string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_UTF8_H_
