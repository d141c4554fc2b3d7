#ifndef MLEBENCH_BASE_CSV_H_
#define MLEBENCH_BASE_CSV_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Reads CSV the way upstream's `mlebench.utils.read_csv` does, i.e. pandas
// (>= 2.2) `read_csv(path, float_precision="round_trip")` with default options
// (and optionally another `sep`, see CsvReadOptions::separator):
//  - RFC 4180 quoting (quoted fields may hold commas, doubled quotes and
//    newlines; text after a closing quote continues the field), "\n", "\r\n"
//    or a lone "\r" ends a line, a leading UTF-8 BOM is dropped, blank lines
//    (empty or only spaces and tabs; with sep="\t" only spaces) are skipped;
//  - the first row is the header; an empty name becomes "Unnamed: <i>";
//    duplicate names become "a", "a.1", ... (skipping names already in the
//    header; named columns keep their names before made-up ones);
//  - rows shorter than the header are padded with missing values; a longer
//    row is an error, except that a first data row with k extra fields makes
//    pandas use the first k fields of every row as the index, which we drop;
//  - per-column dtype inference (see Dtype) with pandas' default NaN tokens
//    ("", "NA", "N/A", "nan", "NaN", "null", "None", "<NA>", "#N/A", ...),
//    pandas' integer parsing (surrounding whitespace allowed) and correctly
//    rounded float parsing ("inf"/"Infinity" in any case; a value overflowing
//    to +inf makes the column object, as in pandas), and the booleans "true"
//    and "false" in any case. Quoted values are inferred like unquoted ones.
//    An int column with a missing value is float64; a bool column with one is
//    object holding bools and missing values. Integers beyond int64 (pandas'
//    uint64 dtype, or object) stay exact as strings in an object column.
//    Like pandas (low_memory=True), a large file is inferred in chunks of rows
//    (2**20 / width rows rounded down to a power of two) whose dtypes are
//    then combined numpy-style: int64 with float64 is float64, bool with int64
//    is int64, and text with numbers is an object column holding each chunk's
//    own values (so int64_t and double cells too);
//  - an empty file (or only blank lines) gives an empty Table (as upstream's
//    read_csv does).
// Not mimicked: pandas misreads a line starting with spaces or tabs in a file
// whose lines end with a lone "\r"; pandas reads NUL bytes as the end of a
// field, which we reject.
// Errors are InvalidArgumentError naming the source, line and column: a row
// with more fields than the first data row, an unterminated quote (where it
// opened), NUL bytes or invalid UTF-8 (binary content), data larger than
// `max_bytes`, and, to bound memory, more than 4Mi columns or more cells
// (rows x columns, counting padding) than 16 per input byte plus 1Mi.
// ReadCsvFile also fails with NotFoundError for an absent file and
// InvalidArgumentError for one that cannot be read or is not a regular file,
// naming the path. More cells than CsvReadOptions::max_cells is
// ResourceExhaustedError, found before any of those cells is built.
// The most threads a read runs at once, the calling one included: a large
// body is cut into one segment per core, 2 to this many, parsed side by side.
// How many there are changes the speed only, never the result.
inline constexpr size_t kMaxCsvReadThreads = 8;

struct CsvReadOptions {
  // Columns to keep as strings (no numeric/bool inference), like pandas'
  // `dtype={name: str}` (which also covers a duplicate renamed from such a
  // name). Missing tokens still become missing.
  std::vector<std::string> string_columns;
  // Largest file accepted, in bytes; bigger files are an error, not an OOM.
  int64_t max_bytes = int64_t{8} << 30;
  // Most cells accepted, counted as rows x columns with the header row
  // included and every row at the table's full width (a short row's padding
  // is built like any other cell); 0: no limit beyond the one above. More is
  // ResourceExhaustedError ("... more than N cells ..."), detected while rows
  // are counted, before their cells are built, so that reading a hostile file
  // costs at most this many cells of memory (the grade step derives it from
  // the answers: grading/grading_limits.h).
  int64_t max_cells = 0;
  // Most columns accepted (of the header, or of a wider first row); 0: the
  // reader's own limit of 4Mi. More is ResourceExhaustedError, found before
  // any column exists (each costs far more than a cell: its name and its
  // buffers).
  int64_t max_columns = 0;
  // The field delimiter, pandas' `sep` (e.g. '\t' for `sep="\t"`). One of
  // the bytes CheckCsvSeparator accepts; another is InvalidArgumentError.
  char separator = ',';
  // Only the columns of these names, like pandas' `usecols=[names]`: the
  // table is the one a full read gives with every other column dropped
  // (kept columns in the file's order, names matched after duplicates are
  // renamed), but the others' values are never parsed (and, in a regular
  // file, never stored either), which spares a grader the columns of its
  // answers it does not read. Every row
  // is still split and its width checked, the limits above still count
  // every column, and a read fails or succeeds exactly as a full read
  // would. Unlike pandas, a listed name the file lacks is no error: the
  // table lacks it, for the caller to report. Empty: every column.
  std::vector<std::string> only_columns;
};

// The shape of what a read parsed, before CsvReadOptions::only_columns
// dropped any column: its body rows and its columns (the header's, as a
// full read's table has them).
struct CsvShape {
  int64_t rows = 0;
  int64_t columns = 0;
};

// How to write CSV; the defaults are pandas' `to_csv` defaults.
struct CsvWriteOptions {
  // The field delimiter, pandas' `sep`; fields holding it are quoted. One of
  // the bytes CheckCsvSeparator accepts.
  char separator = ',';
};

// OK for the separators the reader and writer support: ',', '\t', ';' and
// '|' (bytes that never occur in numbers, quotes or line ends); otherwise
// InvalidArgumentError naming the byte.
absl::Status CheckCsvSeparator(char separator);

absl::StatusOr<Table> ReadCsvFile(const std::string& path, const CsvReadOptions& options = {});
// `source_name` names the data in error messages.
absl::StatusOr<Table> ReadCsvString(std::string_view data, std::string_view source_name,
                                    const CsvReadOptions& options = {});

// The same tables in typed storage (TypedTable::ToTable() is what the two
// functions above return): numeric and bool columns as arrays, text as views
// into the file's bytes, which the TypedTable keeps. What fast graders read.
// With `shape`, also sets *shape on success.
absl::StatusOr<TypedTable> ReadTypedCsvFile(const std::string& path,
                                            const CsvReadOptions& options = {},
                                            CsvShape* shape = nullptr);
absl::StatusOr<TypedTable> ReadTypedCsvString(std::string_view data,
                                              std::string_view source_name,
                                              const CsvReadOptions& options = {},
                                              CsvShape* shape = nullptr);

// Writes `table` as pandas' `DataFrame.to_csv(path, index=False)` does with
// default options (and CPython >= 3.11.9's csv module): header row, ","
// separator, "\n" line ends, minimal quoting (fields holding ",", '"', "\n"
// or "\r" are quoted, quotes doubled; a row that is a single empty field is
// written as ""), missing values as empty fields, floats as Python's repr,
// ints as decimal, bools as True/False. A Table without columns is "\n".
// With `options`, as `to_csv(index=False, sep=options.separator)`: the
// separator replaces "," between fields and in the quoting rule; an
// unsupported separator is InvalidArgumentError.
// WriteCsvFile writes a temporary file beside `path` and renames it over
// `path`, so a failure never leaves a half-written file.
std::string WriteCsvString(const Table& table);
absl::StatusOr<std::string> WriteCsvString(const Table& table, const CsvWriteOptions& options);
absl::Status WriteCsvFile(const Table& table, const std::string& path,
                          const CsvWriteOptions& options = {});

}  // namespace mlebench

#endif  // MLEBENCH_BASE_CSV_H_
