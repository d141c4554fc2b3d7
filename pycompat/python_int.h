#ifndef MLEBENCH_PYCOMPAT_PYTHON_INT_H_
#define MLEBENCH_PYCOMPAT_PYTHON_INT_H_

// Python's built-in int() of text and of a pandas cell, for graders and
// preparers whose upstream code calls int() on values read from files.

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// Python's `int(text)` (base 10) of UTF-8 text, as CPython 3.11 reads it:
// each non-ASCII whitespace character (U+00A0, U+2003, ...) counts as a space
// and each non-ASCII decimal digit (category Nd: U+0663, U+FF13, ...) as its
// ASCII digit; then surrounding ASCII whitespace (" \t\n\v\f\r"), an
// optional sign, decimal digits with single underscores between digits
// ("1_000"). Errors:
//  - InvalidArgumentError "invalid literal for int() with base 10: '<text>'"
//    where Python raises ValueError (also for text that is not UTF-8);
//  - OutOfRangeError for a valid integer outside int64, which Python's
//    unbounded int accepts: callers say what that means for them (e.g. an id
//    that can match no int64 id).
absl::StatusOr<int64_t> PythonIntFromString(std::string_view text);

// Python's `int(value)` of one cell as pandas holds it: bools 0/1, ints as
// they are, floats truncated toward zero, strings as PythonIntFromString.
// nullopt where Python raises (NaN or a missing cell, +-inf, text int()
// rejects) and for values outside int64.
std::optional<int64_t> PythonIntOfCell(const Cell& cell);

// Python's `int(value)` of one cell where it lies in [2**63, 2**64): numpy
// turns a list of such Python ints (all of them) into a uint64 array, which
// scikit-learn takes as class labels. nullopt for every other cell.
std::optional<uint64_t> PythonIntOfCellAboveInt64(const Cell& cell);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_INT_H_
