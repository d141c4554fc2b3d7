#ifndef MLEBENCH_BASE_TYPED_CSV_WRITER_H_
#define MLEBENCH_BASE_TYPED_CSV_WRITER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/typed_table.h"

namespace mlebench {

// Writes the rows `rows` (positions into `columns`, in that order; each must
// be < every column's size) of `columns` to `path` with exactly the text
// WriteCsvFile gives for the Table of those rows (pandas'
// `df.iloc[rows].to_csv(path, index=False)`), but a slice of rows at a time:
// no Table of all the rows and no string of the whole file is built, so
// memory stays at one slice's cells whatever the row count. Like
// WriteCsvFile, the text goes to a temporary file beside `path` that is
// renamed over it, so a failure never leaves a half-written file. No columns
// is InvalidArgumentError; a row out of range is OutOfRangeError.
absl::Status WriteTypedCsvRows(const std::vector<const TypedColumn*>& columns,
                               std::span<const int64_t> rows, const std::string& path);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_TYPED_CSV_WRITER_H_
