#include "base/table_ops.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

absl::Status CheckRectangular(const Table& table) {
  const size_t rows = table.num_rows();
  for (const Column& column : table.columns()) {
    if (column.cells.size() != rows) {
      return absl::InvalidArgumentError(absl::StrCat("malformed table: column '", column.name,
                                                     "' has ", column.cells.size(),
                                                     " cells, expected ", rows));
    }
  }
  return absl::OkStatus();
}

absl::Status NotAColumn(std::string_view name) {
  return absl::NotFoundError(absl::StrCat("no column named '", std::string(name), "'"));
}

}  // namespace

absl::StatusOr<Table> TakeRows(const Table& table, std::span<const int64_t> rows) {
  RETURN_IF_ERROR(CheckRectangular(table));
  const int64_t num_rows = static_cast<int64_t>(table.num_rows());
  for (int64_t row : rows) {
    if (row < 0 || row >= num_rows) {
      return absl::OutOfRangeError(absl::StrCat(
          "row position ", row, " is out of range for a table of ", num_rows, " rows"));
    }
  }
  std::vector<Column> columns;
  columns.reserve(table.num_columns());
  for (const Column& column : table.columns()) {
    Column taken{column.name, column.dtype, {}};
    taken.cells.reserve(rows.size());
    for (int64_t row : rows) taken.cells.push_back(column.cells[static_cast<size_t>(row)]);
    columns.push_back(std::move(taken));
  }
  return Table(std::move(columns));
}

absl::Status KeepRowsInPlace(Table& table, std::span<const int64_t> rows) {
  RETURN_IF_ERROR(CheckRectangular(table));
  const int64_t num_rows = static_cast<int64_t>(table.num_rows());
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] < 0 || rows[i] >= num_rows) {
      return absl::OutOfRangeError(absl::StrCat(
          "row position ", rows[i], " is out of range for a table of ", num_rows, " rows"));
    }
    if (i > 0 && rows[i] <= rows[i - 1]) {
      return absl::InvalidArgumentError(
          "KeepRowsInPlace: row positions must be strictly increasing");
    }
  }
  for (Column& column : table.mutable_columns()) {
    // rows[i] >= i, so each move reads a cell not yet overwritten.
    for (size_t i = 0; i < rows.size(); ++i) {
      if (static_cast<size_t>(rows[i]) != i) {
        column.cells[i] = std::move(column.cells[static_cast<size_t>(rows[i])]);
      }
    }
    column.cells.resize(rows.size());
  }
  return absl::OkStatus();
}

absl::StatusOr<Table> DropColumns(const Table& table, const std::vector<std::string>& names) {
  RETURN_IF_ERROR(CheckRectangular(table));
  for (const std::string& name : names) {
    if (table.Find(name) == nullptr) return NotAColumn(name);
  }
  std::vector<Column> kept;
  for (const Column& column : table.columns()) {
    bool dropped = false;
    for (const std::string& name : names) dropped = dropped || column.name == name;
    if (!dropped) kept.push_back(column);
  }
  return Table(std::move(kept));
}

absl::StatusOr<Table> SelectColumns(const Table& table, const std::vector<std::string>& names) {
  RETURN_IF_ERROR(CheckRectangular(table));
  std::vector<Column> selected;
  selected.reserve(names.size());
  for (const std::string& name : names) {
    const Column* column = table.Find(name);
    if (column == nullptr) return NotAColumn(name);
    selected.push_back(*column);
  }
  return Table(std::move(selected));
}

absl::Status SetConstantColumn(Table& table, std::string_view name, const Cell& value) {
  RETURN_IF_ERROR(CheckRectangular(table));
  if (table.num_columns() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot set column '", std::string(name), "' on a table without columns"));
  }
  Column column{std::string(name), Dtype::kObject, {}};
  Cell cell = value;
  if (std::holds_alternative<bool>(value)) {
    column.dtype = Dtype::kBool;
  } else if (std::holds_alternative<int64_t>(value)) {
    column.dtype = Dtype::kInt64;
  } else if (std::holds_alternative<double>(value)) {
    column.dtype = Dtype::kFloat64;
  } else if (std::holds_alternative<std::monostate>(value)) {
    column.dtype = Dtype::kFloat64;
    cell = std::numeric_limits<double>::quiet_NaN();
  }
  column.cells.assign(table.num_rows(), cell);
  if (Column* existing = table.FindMutable(name)) {
    *existing = std::move(column);
  } else {
    table.mutable_columns().push_back(std::move(column));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
