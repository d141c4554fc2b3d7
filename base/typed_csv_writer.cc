#include "base/typed_csv_writer.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"

namespace mlebench {
namespace {

// Rows formatted at a time: some tens of MB of cells for tables a few
// columns wide.
constexpr size_t kSliceRows = size_t{1} << 16;

// The Table of `columns` at rows[begin, end).
absl::StatusOr<Table> Slice(const std::vector<const TypedColumn*>& columns,
                            std::span<const int64_t> rows, size_t begin, size_t end) {
  std::vector<Column> slice;
  slice.reserve(columns.size());
  for (const TypedColumn* c : columns) {
    ASSIGN_OR_RETURN(Column column, TakeRows(*c, rows.subspan(begin, end - begin)));
    slice.push_back(std::move(column));
  }
  return Table(std::move(slice));
}

// No columns, or a row out of range of them, as an error naming `path`.
absl::Status CheckRows(const std::vector<const TypedColumn*>& columns,
                       std::span<const int64_t> rows, const std::string& path) {
  if (columns.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no columns to write to '", path, "'"));
  }
  size_t size = columns[0]->size();
  for (const TypedColumn* c : columns) size = std::min(size, c->size());
  for (const int64_t row : rows) {
    if (row < 0 || static_cast<size_t>(row) >= size) {
      return absl::OutOfRangeError(
          absl::StrCat("row ", row, " of columns with ", size, " rows, writing '", path, "'"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TypedCsvRowsWriter> TypedCsvRowsWriter::Create(const std::string& path) {
  ASSIGN_OR_RETURN(ReplacingFile file, ReplacingFile::Create(path));
  return TypedCsvRowsWriter(std::move(file));
}

absl::Status TypedCsvRowsWriter::Append(const std::vector<const TypedColumn*>& columns,
                                        std::span<const int64_t> rows) {
  RETURN_IF_ERROR(file_.CheckOpen());
  RETURN_IF_ERROR(CheckRows(columns, rows, file_.path()));
  // The header as WriteCsvString writes it (names may hold quoted newlines),
  // written once and dropped from every other slice.
  ASSIGN_OR_RETURN(const Table header, Slice(columns, rows, 0, 0));
  const size_t header_size = WriteCsvString(header).size();
  size_t begin = 0;
  do {  // once at least: the first batch writes the header even without rows
    const size_t end = std::min(rows.size(), begin + kSliceRows);
    ASSIGN_OR_RETURN(const Table slice, Slice(columns, rows, begin, end));
    const std::string text = WriteCsvString(slice);
    RETURN_IF_ERROR(
        file_.Append(std::string_view(text).substr(header_written_ ? header_size : 0)));
    header_written_ = true;
    begin = end;
  } while (begin < rows.size());
  return absl::OkStatus();
}

absl::Status TypedCsvRowsWriter::Finish() { return file_.Commit(); }

absl::Status WriteTypedCsvRows(const std::vector<const TypedColumn*>& columns,
                               std::span<const int64_t> rows, const std::string& path) {
  RETURN_IF_ERROR(CheckRows(columns, rows, path));
  ASSIGN_OR_RETURN(TypedCsvRowsWriter writer, TypedCsvRowsWriter::Create(path));
  RETURN_IF_ERROR(writer.Append(columns, rows));
  return writer.Finish();
}

}  // namespace mlebench
