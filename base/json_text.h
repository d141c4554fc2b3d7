// JSON string literals as Python's json.dumps writes them (ensure_ascii=True,
// its default): the one escaper behind report.json, the run record and
// pycompat's json.dumps.
#ifndef MLEBENCH_BASE_JSON_TEXT_H_
#define MLEBENCH_BASE_JSON_TEXT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace mlebench {

// What to do with bytes of `text` that are not UTF-8.
enum class InvalidUtf8 {
  kReject,   // InvalidArgumentError naming the byte and its offset
  kReplace,  // each invalid byte becomes U+FFFD, as Python's "replace" does
};

// Appends `text` in double quotes: '"', '\\', \b \f \n \r \t as two-letter
// escapes, every other character outside U+0020..U+007E as \uXXXX (lower-case
// hex), characters beyond U+FFFF as surrogate pairs. Surrogates in their
// 3-byte form (Python's "surrogatepass") are written as \udXXX. On
// InvalidArgumentError, `out` is unchanged.
absl::Status AppendJsonString(std::string_view text, std::string& out,
                              InvalidUtf8 invalid = InvalidUtf8::kReplace);

// The same, returned; invalid bytes replaced.
std::string JsonString(std::string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_JSON_TEXT_H_
