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

}  // namespace

absl::Status WriteTypedCsvRows(const std::vector<const TypedColumn*>& columns,
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
  // The header as WriteCsvString writes it (names may hold quoted newlines),
  // to drop from every slice but the first.
  const size_t header_size = WriteCsvString(Slice(columns, rows, 0, 0)).size();

  static std::atomic<uint64_t> counter{0};
  const std::string temp_path = absl::StrCat(path, ".tmp.", ::getpid(), ".", counter.fetch_add(1));
  std::FILE* out = std::fopen(temp_path.c_str(), "wbx");
  if (out == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create '", temp_path, "': ", std::strerror(errno)));
  }
  bool ok = true;
  for (size_t begin = 0; ok && (begin == 0 || begin < rows.size()); begin += kSliceRows) {
    const size_t end = std::min(rows.size(), begin + kSliceRows);
    const std::string text = WriteCsvString(Slice(columns, rows, begin, end));
    const size_t skip = begin == 0 ? 0 : header_size;
    ok = std::fwrite(text.data() + skip, 1, text.size() - skip, out) == text.size() - skip;
  }
  const int write_errno = errno;
  if (std::fclose(out) != 0 || !ok) {
    const int err = ok ? errno : write_errno;
    std::remove(temp_path.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", temp_path, "': ", std::strerror(err)));
  }
  if (std::rename(temp_path.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp_path.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot replace '", path, "': ", std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
