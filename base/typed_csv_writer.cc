#include "base/typed_csv_writer.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
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
Table Slice(const std::vector<const TypedColumn*>& columns, std::span<const int64_t> rows,
            size_t begin, size_t end) {
  std::vector<Column> slice;
  slice.reserve(columns.size());
  for (const TypedColumn* c : columns) {
    Column column{c->name(), c->dtype(), {}};
    column.cells.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) {
      column.cells.push_back(c->CellAt(static_cast<size_t>(rows[i])));
    }
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
  static std::atomic<uint64_t> counter{0};
  std::string temp_path = absl::StrCat(path, ".tmp.", ::getpid(), ".", counter.fetch_add(1));
  std::FILE* out = std::fopen(temp_path.c_str(), "wbx");
  if (out == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create '", temp_path, "': ", std::strerror(errno)));
  }
  return TypedCsvRowsWriter(path, std::move(temp_path), out);
}

TypedCsvRowsWriter::TypedCsvRowsWriter(TypedCsvRowsWriter&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      out_(std::exchange(other.out_, nullptr)),
      header_written_(other.header_written_) {}

TypedCsvRowsWriter::~TypedCsvRowsWriter() {
  if (out_ != nullptr) {
    std::fclose(out_);
    std::remove(temp_path_.c_str());
  }
}

absl::Status TypedCsvRowsWriter::Append(const std::vector<const TypedColumn*>& columns,
                                        std::span<const int64_t> rows) {
  if (out_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is no longer being written"));
  }
  RETURN_IF_ERROR(CheckRows(columns, rows, path_));
  // The header as WriteCsvString writes it (names may hold quoted newlines),
  // written once and dropped from every other slice.
  const size_t header_size = WriteCsvString(Slice(columns, rows, 0, 0)).size();
  bool ok = true;
  size_t begin = 0;
  do {  // once at least: the first batch writes the header even without rows
    const size_t end = std::min(rows.size(), begin + kSliceRows);
    const std::string text = WriteCsvString(Slice(columns, rows, begin, end));
    const size_t skip = header_written_ ? header_size : 0;
    ok = std::fwrite(text.data() + skip, 1, text.size() - skip, out_) == text.size() - skip;
    header_written_ = true;
    begin = end;
  } while (ok && begin < rows.size());
  if (!ok) {
    const int err = errno;
    std::fclose(out_);
    out_ = nullptr;
    std::remove(temp_path_.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", temp_path_, "': ", std::strerror(err)));
  }
  return absl::OkStatus();
}

absl::Status TypedCsvRowsWriter::Finish() {
  if (out_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is no longer being written"));
  }
  const int close_result = std::fclose(out_);
  out_ = nullptr;
  if (close_result != 0) {
    const int err = errno;
    std::remove(temp_path_.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", temp_path_, "': ", std::strerror(err)));
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::remove(temp_path_.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot replace '", path_, "': ", std::strerror(err)));
  }
  return absl::OkStatus();
}

absl::Status WriteTypedCsvRows(const std::vector<const TypedColumn*>& columns,
                               std::span<const int64_t> rows, const std::string& path) {
  RETURN_IF_ERROR(CheckRows(columns, rows, path));
  ASSIGN_OR_RETURN(TypedCsvRowsWriter writer, TypedCsvRowsWriter::Create(path));
  RETURN_IF_ERROR(writer.Append(columns, rows));
  return writer.Finish();
}

}  // namespace mlebench
