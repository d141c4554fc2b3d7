#include "grading/metrics/probability_rows.h"

#include <cmath>
#include <optional>
#include <span>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "grading/outcome.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {

absl::Status CheckProbabilityRows(const std::vector<const Column*>& columns,
                                  std::string_view sum_message, std::string_view range_message) {
  std::vector<TypedColumn> views;
  views.reserve(columns.size());
  for (const Column* column : columns) views.push_back(TypedColumn::CellsView(*column));
  std::vector<const TypedColumn*> pointers;
  for (const TypedColumn& view : views) pointers.push_back(&view);
  return CheckProbabilityRows(pointers, sum_message, range_message);
}

absl::Status CheckProbabilityRows(const std::vector<const TypedColumn*>& columns,
                                  std::string_view sum_message, std::string_view range_message) {
  const std::string sum_text(sum_message);
  const std::string range_text(range_message);
  // The values as pandas' row sum sees them: float64 columns in place,
  // others converted.
  std::vector<std::span<const double>> values;
  std::vector<std::vector<double>> converted;
  converted.reserve(columns.size());
  for (const TypedColumn* column : columns) {
    if (column->storage() == TypedColumn::Storage::kFloat64) {
      values.push_back(column->doubles());
      continue;
    }
    std::vector<double>& column_values = converted.emplace_back();
    values.push_back(std::span<const double>());  // set below
    column_values.reserve(column->size());
    for (size_t row = 0; row < column->size(); ++row) {
      const std::optional<double> v = NumericValueAt(*column, row);
      if (!v.has_value()) {
        return InvalidSubmission(absl::StrCat(
            sum_text, ", but column '", column->name(), "' holds the text '",
            std::get<std::string>(column->CellAt(row)), "' in row ", row,
            ", which cannot be summed"));
      }
      column_values.push_back(*v);
    }
    values.back() = column_values;
  }
  const size_t rows = values.empty() ? 0 : values[0].size();
  for (size_t row = 0; row < rows; ++row) {
    double sum = 0.0;
    for (const std::span<const double> column_values : values) {
      if (!std::isnan(column_values[row])) sum += column_values[row];
    }
    constexpr double kAtol = 1e-6;
    constexpr double kRtol = 1e-5;
    if (!(std::isfinite(sum) && std::fabs(sum - 1.0) <= kAtol + kRtol * 1.0)) {
      return InvalidSubmission(
          absl::StrCat(sum_text, " (row ", row, " sums to ", FormatPythonFloat(sum), ")."));
    }
  }
  for (size_t c = 0; c < values.size(); ++c) {
    for (size_t row = 0; row < values[c].size(); ++row) {
      const double v = values[c][row];
      if (!(v >= 0.0 && v <= 1.0)) {  // NaN fails both comparisons
        return InvalidSubmission(absl::StrCat(range_text, " (column '", columns[c]->name(),
                                              "', row ", row, ")."));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace mlebench
