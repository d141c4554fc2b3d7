// The CSV reader's fast path for regular files (base/csv.cc): a body with no
// "\r", no blank lines, quotes only around whole fields that hold no quote
// or line end, every row as wide as the header and each column of one kind,
// parsed on several threads straight into typed storage.
// Gives what the general path gives, or nothing. Not for other callers.
#ifndef MLEBENCH_BASE_INTERNAL_CSV_REGULAR_H_
#define MLEBENCH_BASE_INTERNAL_CSV_REGULAR_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/typed_table.h"

namespace mlebench::csv_internal {

// Linux >= 5.14's madvise advice that maps the pages of a range in (all at
// once rather than a fault per page as they are first touched); absent from
// older headers.
constexpr int kPopulateRead = 22;   // MADV_POPULATE_READ: a file mapping's pages
constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE: fresh pages, zeroed, writable

// Has the pages holding [begin, end) populated with `advice`, one segment's
// share, in parallel with the others. Elsewhere, or on an older kernel, the
// call fails and the pages fault in as usual; either way nothing changes
// but when the work is done.
void PopulatePages(const void* begin, const void* end, int advice);

// The fast path for a regular body (the rows from byte `body` on): quotes
// only around whole fields as above, every row exactly names.size() fields,
// each value of the kind of its column's first value, each inferred text
// column with a witness in every chunk. Parses it on several threads into
// typed storage and moves `names` into the columns; nullopt, with `names` untouched, when the body is not
// regular (ParseCsv's general path then reads it).
// More than `max_rows` lines in the body is no table either: nullopt before
// any column is allocated, and the general path, which counts rows as
// pandas does (blank lines and line ends inside quotes are not rows) and
// reports the first error in the file's order, says what is wrong.
// Only the columns j with keep[j] are parsed and returned (in file order);
// the others' fields are split and counted but not read, so they decide
// nothing but the rows' width. `*body_rows` is set to the body's row count
// when a table is returned.
std::optional<std::vector<TypedColumn>> TryParseRegularBody(
    std::string_view data, size_t body, std::vector<std::string>& names,
    const std::vector<bool>& as_string, const std::vector<bool>& keep, char sep, size_t max_rows,
    size_t* body_rows);

}  // namespace mlebench::csv_internal

#endif  // MLEBENCH_BASE_INTERNAL_CSV_REGULAR_H_
