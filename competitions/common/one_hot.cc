#include "competitions/common/one_hot.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {

absl::StatusOr<Table> DfToOneHot(const Table& df, std::string_view id_column,
                                 std::string_view target_column,
                                 const std::vector<std::string>& classes) {
  std::set<std::string, std::less<>> seen;
  for (const std::string& name : classes) {
    if (name == id_column || !seen.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("class '", name, "' repeats a column name of the one-hot table"));
    }
  }
  ASSIGN_OR_RETURN(const Column* ids, df.Get(id_column));
  ASSIGN_OR_RETURN(const Column* targets, df.Get(target_column));
  const size_t rows = ids->cells.size();
  if (targets->cells.size() != rows) {
    return absl::InvalidArgumentError("malformed table: id and target columns differ in length");
  }

  std::vector<Column> columns;
  columns.push_back(*ids);
  for (const std::string& name : classes) {
    columns.push_back(Column{name, Dtype::kInt64, std::vector<Cell>(rows, int64_t{0})});
  }
  for (size_t row = 0; row < rows; ++row) {
    const std::string* label = std::get_if<std::string>(&targets->cells[row]);
    const auto it = label == nullptr ? classes.end() : std::find(classes.begin(), classes.end(), *label);
    if (it == classes.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "row ", row, ": column '", std::string(target_column), "' holds ",
          label == nullptr ? std::string("a missing or non-text value") : absl::StrCat("'", *label, "'"),
          ", which is not one of the classes"));
    }
    columns[1 + (it - classes.begin())].cells[row] = int64_t{1};
  }
  return Table(std::move(columns));
}

}  // namespace mlebench
