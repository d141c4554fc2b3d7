#ifndef MLEBENCH_BASE_JSON_LINES_H_
#define MLEBENCH_BASE_JSON_LINES_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// Reads a JSON-lines file (one JSON object per line, as pandas'
// `to_json(orient="records", lines=True)` writes it) into a Table, for
// answers files that upstream loads with its `read_jsonl` (a list of dicts).
//
// One row per non-blank line, in file order; one column per top-level key,
// in first-seen order across all lines. Every column is Dtype::kObject and
// its cells hold what the line's value is:
//   string         -> std::string, unescaped (UTF-8; \uXXXX escapes decoded,
//                     surrogate pairs combined, a lone surrogate kept as its
//                     3-byte generalised UTF-8 form);
//   integer        -> int64_t (an integer beyond int64 is an error);
//   other number   -> double;
//   true / false   -> bool;
//   null, or a key absent from that line -> std::monostate (missing);
//   array / object -> std::string holding the value's exact JSON text from
//                     the file (graders that need it parse it themselves,
//                     e.g. with pycompat/python_json.h).
// A line that is not exactly one JSON object (syntax error, trailing text,
// repeated key, a scalar or array line) is InvalidArgumentError naming
// `source_name` and the line number. Lines are separated by '\n'; a trailing
// '\r' and surrounding whitespace are ignored.
absl::StatusOr<Table> ReadJsonLinesString(std::string_view data, std::string_view source_name);

// ReadJsonLinesString of a file's contents; an unreadable file is an error
// naming `path`.
absl::StatusOr<Table> ReadJsonLinesFile(const std::string& path);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_JSON_LINES_H_
