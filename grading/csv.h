#ifndef MLEBENCH_GRADING_CSV_H_
#define MLEBENCH_GRADING_CSV_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/table.h"

namespace mlebench {

// Reads CSV the way upstream's `mlebench.utils.read_csv` does, i.e. pandas
// `read_csv(path, float_precision="round_trip")` with default options:
//  - RFC 4180 quoting (quoted fields may hold commas, doubled quotes and
//    newlines), LF or CRLF line ends, a leading UTF-8 BOM is dropped, blank
//    lines are skipped;
//  - the first row is the header; duplicate names become "a", "a.1", ...;
//  - per-column dtype inference (see Dtype) with pandas' default NaN tokens
//    ("", "NA", "N/A", "nan", "NaN", "null", "None", "<NA>", "#N/A", ...),
//    pandas' integer and correctly rounded float parsing, and the booleans
//    True/TRUE/true and False/FALSE/false;
//  - an empty file gives an empty Table (as upstream's read_csv does).
// Errors (unreadable file, a row with more fields than the header, an
// unterminated quote, NUL bytes / binary content) are InvalidArgumentError
// naming the source, line and column.
struct CsvReadOptions {
  // Columns to keep as strings (no numeric/bool inference), like pandas'
  // `dtype={name: str}`. Missing tokens still become missing.
  std::vector<std::string> string_columns;
  // Largest file accepted, in bytes; bigger files are an error, not an OOM.
  int64_t max_bytes = int64_t{8} << 30;
};

absl::StatusOr<Table> ReadCsvFile(const std::string& path, const CsvReadOptions& options = {});
// `source_name` names the data in error messages.
absl::StatusOr<Table> ReadCsvString(std::string_view data, std::string_view source_name,
                                    const CsvReadOptions& options = {});

// Writes `table` as pandas' `DataFrame.to_csv(path, index=False)` does with
// default options: header row, "," separator, "\n" line ends, minimal quoting
// (fields holding ",", '"', "\n" or "\r" are quoted, quotes doubled), missing
// values as empty fields, floats as Python's repr, ints as decimal, bools as
// True/False.
std::string WriteCsvString(const Table& table);
absl::Status WriteCsvFile(const Table& table, const std::string& path);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_CSV_H_
