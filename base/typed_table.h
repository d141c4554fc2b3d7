#ifndef MLEBENCH_BASE_TYPED_TABLE_H_
#define MLEBENCH_BASE_TYPED_TABLE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// A column in the storage its values need, the form the CSV reader infers
// before any Cell exists: one int64/float64/byte array for numeric and bool
// columns and views for text, instead of one 40-byte Cell (and a heap string)
// per value. Graders that read their columns through it grade a million-row
// file several times faster than through Table (docs/performance.md).
//
// Values are exactly those of the Table column ToColumn() gives:
//   kInt64   dtype int64, ints();
//   kFloat64 dtype float64, doubles() (NaN where missing);
//   kBool    dtype bool, bools() (0 or 1);
//   kText    dtype object holding only strings and missing values: text(),
//            where a missing value is a view whose data() is null (every
//            present string, the empty one included, has non-null data);
//   kCells   anything else (e.g. bools mixed with missing values, or numbers
//            mixed with text by pandas' chunked inference): cells().
// Text views and viewed cells belong to whoever made the column (a
// TypedTable keeps them alive); a TypedColumn is move-only, and moving it
// keeps every view valid.
class TypedColumn {
 public:
  enum class Storage { kInt64, kFloat64, kBool, kText, kCells };

  static TypedColumn Ints(std::string name, std::vector<int64_t> values);
  static TypedColumn Doubles(std::string name, std::vector<double> values);
  static TypedColumn Bools(std::string name, std::vector<uint8_t> values);
  static TypedColumn Text(std::string name, std::vector<std::string_view> values);
  // The same over values that `owner` keeps alive (e.g. an array the CSV
  // reader filled in place); moving the column keeps `values` valid.
  static TypedColumn Ints(std::string name, std::span<const int64_t> values,
                          std::shared_ptr<const void> owner);
  static TypedColumn Doubles(std::string name, std::span<const double> values,
                             std::shared_ptr<const void> owner);
  static TypedColumn Bools(std::string name, std::span<const uint8_t> values,
                           std::shared_ptr<const void> owner);
  static TypedColumn Text(std::string name, std::span<const std::string_view> values,
                          std::shared_ptr<const void> owner);
  // Owns `cells`, whose values must match `dtype` as Column's do.
  static TypedColumn Cells(std::string name, Dtype dtype, std::vector<Cell> cells);
  // Views `column`'s cells without copying; `column` must outlive the result.
  static TypedColumn CellsView(const Column& column);

  TypedColumn(TypedColumn&&) = default;
  TypedColumn& operator=(TypedColumn&&) = default;
  TypedColumn(const TypedColumn&) = delete;
  TypedColumn& operator=(const TypedColumn&) = delete;

  const std::string& name() const { return name_; }
  Dtype dtype() const { return dtype_; }
  Storage storage() const { return storage_; }
  size_t size() const;

  // The storage of the matching kind; empty for any other.
  std::span<const int64_t> ints() const { return ints_; }
  std::span<const double> doubles() const { return doubles_; }
  std::span<const uint8_t> bools() const { return bools_; }
  std::span<const std::string_view> text() const { return text_; }
  std::span<const Cell> cells() const { return cells_; }

  // Whether a kText value is missing.
  static bool IsMissingText(std::string_view value) { return value.data() == nullptr; }

  // The value at `row` (< size()) as a Cell.
  Cell CellAt(size_t row) const;
  // The whole column as cells.
  Column ToColumn() const;

 private:
  TypedColumn(std::string name, Dtype dtype, Storage storage)
      : name_(std::move(name)), dtype_(dtype), storage_(storage) {}

  std::string name_;
  Dtype dtype_;
  Storage storage_;
  // Only the span of `storage_`'s kind is set; it points into `owner_`'s
  // memory, or, for a viewed Column, into that column's cells.
  std::span<const int64_t> ints_;
  std::span<const double> doubles_;
  std::span<const uint8_t> bools_;
  std::span<const std::string_view> text_;
  std::span<const Cell> cells_;
  std::shared_ptr<const void> owner_;
};

// A table of TypedColumns with Table's lookup functions; it keeps alive the
// bytes its text views point into. Move-only.
class TypedTable {
 public:
  TypedTable() = default;
  // `owner` holds whatever the columns' views point into (may be null).
  TypedTable(std::vector<TypedColumn> columns, std::shared_ptr<const void> owner)
      : columns_(std::move(columns)), owner_(std::move(owner)) {}

  // Views `table`'s columns (kCells) without copying; `table` must outlive
  // the result. Lets Table-based callers share code written for TypedTable.
  static TypedTable View(const Table& table);
  // Takes ownership of `table`'s cells (kCells columns).
  static TypedTable FromTable(Table table);

  TypedTable(TypedTable&&) = default;
  TypedTable& operator=(TypedTable&&) = default;

  size_t num_rows() const { return columns_.empty() ? 0 : columns_[0].size(); }
  size_t num_columns() const { return columns_.size(); }
  const std::vector<TypedColumn>& columns() const { return columns_; }

  // The column called `name`, or nullptr.
  const TypedColumn* Find(std::string_view name) const;
  // The column called `name`, or NotFoundError naming it.
  absl::StatusOr<const TypedColumn*> Get(std::string_view name) const;
  std::vector<std::string> ColumnNames() const;

  // The same table as cells.
  Table ToTable() const;

 private:
  std::vector<TypedColumn> columns_;
  std::shared_ptr<const void> owner_;
};

// `df.iloc[rows]` for typed data, the counterpart of table_ops' TakeRows:
// the values at positions `rows`, in that order (repeats allowed), as cells
// of the same name and dtype. A position outside [0, size) is
// OutOfRangeError naming it and the column.
absl::StatusOr<Column> TakeRows(const TypedColumn& column, std::span<const int64_t> rows);
// The same for every column of `table`.
absl::StatusOr<Table> TakeRows(const TypedTable& table, std::span<const int64_t> rows);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_TYPED_TABLE_H_
