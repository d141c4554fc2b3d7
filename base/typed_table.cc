#include "base/typed_table.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {

namespace {

// Moves `values` to the heap, where neither moving the column nor moving
// the vector's owner moves them: a span of it stays valid.
template <typename T>
std::shared_ptr<const std::vector<T>> Hold(std::vector<T> values) {
  return std::make_shared<const std::vector<T>>(std::move(values));
}

}  // namespace

TypedColumn TypedColumn::Ints(std::string name, std::vector<int64_t> values) {
  auto held = Hold(std::move(values));
  return Ints(std::move(name), *held, held);
}

TypedColumn TypedColumn::Doubles(std::string name, std::vector<double> values) {
  auto held = Hold(std::move(values));
  return Doubles(std::move(name), *held, held);
}

TypedColumn TypedColumn::Bools(std::string name, std::vector<uint8_t> values) {
  auto held = Hold(std::move(values));
  return Bools(std::move(name), *held, held);
}

TypedColumn TypedColumn::Text(std::string name, std::vector<std::string_view> values) {
  auto held = Hold(std::move(values));
  return Text(std::move(name), *held, held);
}

TypedColumn TypedColumn::Ints(std::string name, std::span<const int64_t> values,
                              std::shared_ptr<const void> owner) {
  TypedColumn c(std::move(name), Dtype::kInt64, Storage::kInt64);
  c.ints_ = values;
  c.owner_ = std::move(owner);
  return c;
}

TypedColumn TypedColumn::Doubles(std::string name, std::span<const double> values,
                                 std::shared_ptr<const void> owner) {
  TypedColumn c(std::move(name), Dtype::kFloat64, Storage::kFloat64);
  c.doubles_ = values;
  c.owner_ = std::move(owner);
  return c;
}

TypedColumn TypedColumn::Bools(std::string name, std::span<const uint8_t> values,
                               std::shared_ptr<const void> owner) {
  TypedColumn c(std::move(name), Dtype::kBool, Storage::kBool);
  c.bools_ = values;
  c.owner_ = std::move(owner);
  return c;
}

TypedColumn TypedColumn::Text(std::string name, std::span<const std::string_view> values,
                              std::shared_ptr<const void> owner) {
  TypedColumn c(std::move(name), Dtype::kObject, Storage::kText);
  c.text_ = values;
  c.owner_ = std::move(owner);
  return c;
}

TypedColumn TypedColumn::Cells(std::string name, Dtype dtype, std::vector<Cell> cells) {
  auto held = Hold(std::move(cells));
  TypedColumn c(std::move(name), dtype, Storage::kCells);
  c.cells_ = *held;
  c.owner_ = std::move(held);
  return c;
}

TypedColumn TypedColumn::CellsView(const Column& column) {
  TypedColumn c(column.name, column.dtype, Storage::kCells);
  c.cells_ = column.cells;
  return c;
}

size_t TypedColumn::size() const {
  switch (storage_) {
    case Storage::kInt64:
      return ints_.size();
    case Storage::kFloat64:
      return doubles_.size();
    case Storage::kBool:
      return bools_.size();
    case Storage::kText:
      return text_.size();
    case Storage::kCells:
      return cells_.size();
  }
  return 0;
}

Cell TypedColumn::CellAt(size_t row) const {
  switch (storage_) {
    case Storage::kInt64:
      return ints_[row];
    case Storage::kFloat64:
      return doubles_[row];
    case Storage::kBool:
      return bools_[row] != 0;
    case Storage::kText:
      if (IsMissingText(text_[row])) return std::monostate();
      return std::string(text_[row]);
    case Storage::kCells:
      return cells_[row];
  }
  return std::monostate();
}

Column TypedColumn::ToColumn() const {
  Column column{name_, dtype_, {}};
  const size_t n = size();
  column.cells.reserve(n);
  for (size_t row = 0; row < n; ++row) column.cells.push_back(CellAt(row));
  return column;
}

TypedTable TypedTable::View(const Table& table) {
  std::vector<TypedColumn> columns;
  columns.reserve(table.num_columns());
  for (const Column& c : table.columns()) columns.push_back(TypedColumn::CellsView(c));
  return TypedTable(std::move(columns), nullptr);
}

TypedTable TypedTable::FromTable(Table table) {
  auto owned = std::make_shared<const Table>(std::move(table));
  TypedTable view = View(*owned);
  view.owner_ = std::move(owned);
  return view;
}

const TypedColumn* TypedTable::Find(std::string_view name) const {
  for (const TypedColumn& c : columns_) {
    if (c.name() == name) return &c;
  }
  return nullptr;
}

absl::StatusOr<const TypedColumn*> TypedTable::Get(std::string_view name) const {
  const TypedColumn* c = Find(name);
  if (c == nullptr) {
    return absl::NotFoundError(absl::StrCat("no column named '", std::string(name), "'"));
  }
  return c;
}

std::vector<std::string> TypedTable::ColumnNames() const {
  std::vector<std::string> names;
  names.reserve(columns_.size());
  for (const TypedColumn& c : columns_) names.push_back(c.name());
  return names;
}

Table TypedTable::ToTable() const {
  std::vector<Column> columns;
  columns.reserve(columns_.size());
  for (const TypedColumn& c : columns_) columns.push_back(c.ToColumn());
  return Table(std::move(columns));
}

absl::StatusOr<Column> TakeRows(const TypedColumn& column, std::span<const int64_t> rows) {
  Column taken{column.name(), column.dtype(), {}};
  taken.cells.reserve(rows.size());
  const size_t size = column.size();
  for (const int64_t row : rows) {
    if (row < 0 || static_cast<size_t>(row) >= size) {
      return absl::OutOfRangeError(
          absl::StrCat("row ", row, " of column '", column.name(), "' with ", size, " rows"));
    }
    taken.cells.push_back(column.CellAt(static_cast<size_t>(row)));
  }
  return taken;
}

absl::StatusOr<Table> TakeRows(const TypedTable& table, std::span<const int64_t> rows) {
  std::vector<Column> columns;
  columns.reserve(table.num_columns());
  for (const TypedColumn& column : table.columns()) {
    ASSIGN_OR_RETURN(Column taken, TakeRows(column, rows));
    columns.push_back(std::move(taken));
  }
  return Table(std::move(columns));
}

}  // namespace mlebench
