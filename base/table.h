#ifndef MLEBENCH_BASE_TABLE_H_
#define MLEBENCH_BASE_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// The value of one cell, as pandas holds it after `read_csv`: missing (NaN),
// a bool, an int64, a float64 or a string. `std::monostate` is pandas' NaN.
using Cell = std::variant<std::monostate, bool, int64_t, double, std::string>;

inline bool IsMissing(const Cell& c) {
  return std::holds_alternative<std::monostate>(c) ||
         (std::holds_alternative<double>(c) && std::get<double>(c) != std::get<double>(c));
}

// A column's dtype, as pandas infers it when reading a CSV:
//   kInt64   every value parsed as an integer and none is missing;
//   kFloat64 every present value is numeric (missing ones are NaN);
//   kBool    every value is True/False (pandas' spellings) and none is missing;
//   kObject  anything else: strings, and bools mixed with missing values.
enum class Dtype { kInt64, kFloat64, kBool, kObject };

// The name pandas prints for a dtype ("int64", "float64", "bool", "object").
std::string_view DtypeName(Dtype dtype);

// One named column. `cells[i]` holds a value matching `dtype`:
// kInt64 -> int64_t; kFloat64 -> double (NaN for missing); kBool -> bool;
// kObject -> std::string, bool or std::monostate; also int64_t or double
// where pandas' chunked reading of a large CSV mixed numbers with text (see
// csv.h).
struct Column {
  std::string name;
  Dtype dtype = Dtype::kObject;
  std::vector<Cell> cells;
};

// A column-major table with pandas DataFrame semantics for what graders and
// preparers need. Column names are unique (the CSV reader renames duplicates
// as pandas does: "a", "a.1", ...).
class Table {
 public:
  Table() = default;
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  size_t num_rows() const { return columns_.empty() ? 0 : columns_[0].cells.size(); }
  size_t num_columns() const { return columns_.size(); }
  const std::vector<Column>& columns() const { return columns_; }
  std::vector<Column>& mutable_columns() { return columns_; }

  // The column called `name`, or nullptr.
  const Column* Find(std::string_view name) const;
  Column* FindMutable(std::string_view name);
  // The column called `name`, or NotFoundError naming it.
  absl::StatusOr<const Column*> Get(std::string_view name) const;

  std::vector<std::string> ColumnNames() const;

 private:
  std::vector<Column> columns_;
};

}  // namespace mlebench

#endif  // MLEBENCH_BASE_TABLE_H_
