// Text that an agent controls - a submission's cells quoted in an invalid
// reason, its log, its exit status - made safe to show where people and
// programs read it: a console or a log parsed line by line, and XML. (JSON
// needs nothing more than json_text.h, which escapes every byte outside
// printable ASCII.)
#ifndef MLEBENCH_BASE_DISPLAY_TEXT_H_
#define MLEBENCH_BASE_DISPLAY_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace mlebench {

// `text` as one line of printable text that says exactly what the bytes
// were: a backslash becomes "\\"; "\n", "\r" and "\t" become those two-letter
// escapes; any other C0 control, DEL and a byte that is not UTF-8 becomes
// "\xNN"; the characters that move the cursor or reorder text without
// showing themselves - C1 controls (U+0080..U+009F), the line and paragraph
// separators (U+2028, U+2029) and the bidirectional controls (U+061C,
// U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) - and the noncharacters
// U+FFFE and U+FFFF become "\uXXXX". Everything else is kept. So no escape
// sequence, carriage return or line break of the agent's reaches a terminal
// or a line-oriented parser, and the shown text cannot be mistaken for
// another line.
//
// With max_bytes > 0, at most that many bytes of `text` are shown (cut at a
// character boundary) followed by "... (N more bytes)".
std::string EscapeForConsole(std::string_view text, size_t max_bytes = 0);

// `text` as XML 1.0 character data or attribute value: the five markup
// characters as entities, tab, line feed and carriage return as character
// references (so that attribute values keep them), and every character that
// XML 1.0 does not allow (C0 controls, U+FFFE, U+FFFF), every C1 control and
// DEL, and every byte that is not UTF-8 as the visible text "\xNN" or
// "\uXXXX" (XML has no way to carry them, and a parser refuses the whole
// document over one). The result always parses.
std::string EscapeForXml(std::string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_DISPLAY_TEXT_H_
