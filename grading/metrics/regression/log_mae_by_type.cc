#include "grading/metrics/regression/log_mae_by_type.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/regression/mean_absolute_error.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {

absl::StatusOr<double> LogMaeByType(const Column& types, const Column& y_true,
                                    const Column& y_pred) {
  if (types.cells.size() != y_true.cells.size() || types.cells.size() != y_pred.cells.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "types, y_true and y_pred differ in length: ", types.cells.size(), ", ",
        y_true.cells.size(), ", ", y_pred.cells.size()));
  }
  // std::string's < compares bytes, which for UTF-8 is code point order.
  std::map<std::string, std::vector<size_t>> rows_by_type;
  for (size_t row = 0; row < types.cells.size(); ++row) {
    const Cell& cell = types.cells[row];
    if (IsMissing(cell)) continue;
    const std::string* label = std::get_if<std::string>(&cell);
    if (label == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("type of row ", row, " is not text"));
    }
    rows_by_type[*label].push_back(row);
  }
  std::vector<double> logs;
  for (const auto& [type, rows] : rows_by_type) {
    Column group_true{.name = y_true.name, .dtype = y_true.dtype, .cells = {}};
    Column group_pred{.name = y_pred.name, .dtype = y_pred.dtype, .cells = {}};
    for (size_t row : rows) {
      group_true.cells.push_back(y_true.cells[row]);
      group_pred.cells.push_back(y_pred.cells[row]);
    }
    ASSIGN_OR_RETURN(double mae, MeanAbsoluteError(group_true, group_pred));
    logs.push_back(std::log(mae));  // log(0) = -inf, as np.log
  }
  return NumpyMean(logs);
}

}  // namespace mlebench
