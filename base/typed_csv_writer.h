#ifndef MLEBENCH_BASE_TYPED_CSV_WRITER_H_
#define MLEBENCH_BASE_TYPED_CSV_WRITER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/replacing_file.h"
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

// WriteTypedCsvRows over batches that are not all at hand at once (e.g. the
// segments of a file read a segment at a time): Append each batch's rows in
// order, then Finish. The file is the text WriteCsvFile gives for the Table
// of all the batches' rows, provided every batch's columns have the same
// names and dtypes (the header is the first batch's) and each value's text
// does not depend on the other rows (true of every column WriteCsvFile
// writes). Text goes to a temporary file beside the path, renamed over it by
// Finish; a writer destroyed unfinished removes it. Move-only.
class TypedCsvRowsWriter {
 public:
  // Creates the temporary file.
  static absl::StatusOr<TypedCsvRowsWriter> Create(const std::string& path);
  TypedCsvRowsWriter(TypedCsvRowsWriter&&) noexcept = default;
  TypedCsvRowsWriter& operator=(TypedCsvRowsWriter&&) = delete;

  // Writes `rows` of `columns` (and before them the header, on the first
  // call), as WriteTypedCsvRows does; its errors, and an error for a writer
  // that failed or finished.
  absl::Status Append(const std::vector<const TypedColumn*>& columns,
                      std::span<const int64_t> rows);
  // Closes the file and renames it over the path (an empty file if nothing
  // was appended).
  absl::Status Finish();

 private:
  explicit TypedCsvRowsWriter(ReplacingFile file) : file_(std::move(file)) {}

  ReplacingFile file_;
  bool header_written_ = false;
};

}  // namespace mlebench

#endif  // MLEBENCH_BASE_TYPED_CSV_WRITER_H_
