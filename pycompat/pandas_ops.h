#ifndef MLEBENCH_PYCOMPAT_PANDAS_OPS_H_
#define MLEBENCH_PYCOMPAT_PANDAS_OPS_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"
#include "base/typed_table.h"

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

// numpy's `argsort(kind="quicksort")` of an object array of `n` items, where
// `less(i, j)` is Python's `items[i] < items[j]` (a strict weak order).
// numpy sorts object arrays with its generic introsort (npy_aquicksort, the
// same algorithm in numpy 1.x and 2.x): median-of-3 quicksort that keeps the
// larger side for later, insertion sort for ranges of at most 16 items, and
// heapsort (npy_aheapsort) for a range once 2 * floor(log2(n)) partitions
// deep. It is not stable; this returns numpy's exact permutation, equal items
// included.
std::vector<size_t> NumpyObjectArgsort(size_t n, absl::FunctionRef<bool(size_t, size_t)> less);

// The positions of `text` in increasing byte order (for UTF-8, Python's str
// order) when all texts are distinct: then every correct sort, numpy's
// unstable one included, gives this permutation, and an integer-prefix sort
// finds it several times faster. Empty when two texts are equal (their
// order is numpy's to decide: use NumpyObjectArgsort).
std::vector<size_t> DistinctTextArgsort(absl::Span<const std::string_view> text);

// The row order of `DataFrame.sort_values(column)` with pandas' defaults
// (kind="quicksort", ascending, na_position="last"), which is pandas'
// `nargsort`: the missing values (NaN) go last in their input order, the
// others are argsorted among themselves. pandas takes no shortcut that
// changes this order (pandas 2.2 only skips the copy when the result is the
// identity), so sorting an already sorted column can still permute its ties.
//  - object columns: Python's `<` (strings by code point, which is UTF-8 byte
//    order; numbers by exact value, int against float included; False < True)
//    through NumpyObjectArgsort, so rows with equal keys come out in numpy's
//    order, as upstream pairs them.
//  - int64, float64 and bool columns: by value, equal keys in input order.
//    numpy's argsort of these dtypes may run SIMD code (x86-simd-sort with
//    AVX-512 or AVX2 in numpy >= 1.25/2.x) whose order among equal keys
//    depends on the CPU upstream ran on, so no portable order exists; the
//    stable one is reproducible and agrees wherever keys are distinct.
// Python cannot order a string against a number or a bool: pandas raises
// TypeError (numpy's sort must compare a string with a number whenever the
// column holds both), an invalid submission upstream; returned here as
// InvalidArgumentError naming both types.
absl::StatusOr<std::vector<size_t>> SortValuesOrder(const Column& column);
// The same for a column in typed storage (the same order as for its cells).
absl::StatusOr<std::vector<size_t>> SortValuesOrder(const TypedColumn& column);

// NumericValue of `column`'s value at `row`, without making a Cell where the
// storage is typed.
std::optional<double> NumericValueAt(const TypedColumn& column, size_t row);

// Writes NumericValueAt of rows 0, 1, ... into `out` (at most out.size()
// rows) and returns how many it wrote: all of them, or the row of the first
// value without one (a string). Bulk copies for typed storage.
size_t CopyNumericValues(const TypedColumn& column, std::span<double> out);

// Whether `a` and `b` hold the same values in the same rows, in the same
// typed storage (int64, float64 bit for bit, bool or text) and dtype, and
// none of them missing. Then SortValuesOrder gives both the same order and
// numpy's elementwise `!=` of the two sorted columns is false everywhere: a
// grader that sorts both by id and compares the sorted ids may sort once and
// skip the comparison (a submission listing the answers' ids in their order,
// as one made from the sample does). False for kCells columns.
bool SameValuesNoneMissing(const TypedColumn& a, const TypedColumn& b);

// CellsEqual of `a`'s value at `i` and `b`'s at `j`.
bool ValuesEqualAt(const TypedColumn& a, size_t i, const TypedColumn& b, size_t j);

// `column` with its cells permuted: result.cells[i] = column.cells[order[i]].
Column TakeCells(const Column& column, absl::Span<const size_t> order);

// Counts `len(set(a) ^ set(b))` over the values of two columns (the number
// of ids present in only one of them), with Python's set equality: numbers
// by value, strings by content, all NaN values one element.
size_t SymmetricDifferenceSize(const Column& a, const Column& b);
size_t SymmetricDifferenceSize(const TypedColumn& a, const TypedColumn& b);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PANDAS_OPS_H_
