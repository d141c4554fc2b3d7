#ifndef MLEBENCH_GRADING_METRICS_PANDAS_OPS_H_
#define MLEBENCH_GRADING_METRICS_PANDAS_OPS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "grading/table.h"

namespace mlebench {

// The pandas/numpy operations on columns that upstream's graders rely on,
// with their semantics for every dtype a CSV column can have.

// The Python type of a cell as it sits in a numpy object array: missing
// values are float NaN, so "float"; then "bool", "int", "float", "str".
std::string_view PythonTypeName(const Cell& cell);

// A cell's numeric value when it has one: bools are 0/1, missing is NaN;
// strings have none.
std::optional<double> NumericValue(const Cell& cell);

// `a == b` as numpy evaluates it elementwise on `.values` (and Python on
// `.tolist()`): numbers compare by value whatever their type (True == 1 ==
// 1.0; an int64 meeting a float64 is compared as float64, as numpy promotes),
// strings compare with strings, a string never equals a number, and missing
// (NaN) equals nothing, itself included.
bool CellsEqual(const Cell& a, const Cell& b);

// The row order that `DataFrame.sort_values(column)` produces with its
// defaults (ascending, NaN last): numbers by value, strings by code point
// (UTF-8 byte order), bools False < True. Equal keys keep their input order
// (pandas' default quicksort does not promise that, but graders only depend
// on it when ids repeat, which they then reject anyway).
// Python cannot order a string against a number or a bool: pandas raises
// TypeError, returned here as InvalidArgumentError naming both types.
absl::StatusOr<std::vector<size_t>> SortValuesOrder(const Column& column);

// `column` with its cells permuted: result.cells[i] = column.cells[order[i]].
Column TakeCells(const Column& column, absl::Span<const size_t> order);

// Counts `len(set(a) ^ set(b))` over the values of two columns (the number
// of ids present in only one of them), with Python's set equality: numbers
// by value, strings by content, all NaN values one element.
size_t SymmetricDifferenceSize(const Column& a, const Column& b);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_PANDAS_OPS_H_
