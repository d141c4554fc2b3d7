#ifndef MLEBENCH_PYCOMPAT_OBJECT_FLOAT_CAST_H_
#define MLEBENCH_PYCOMPAT_OBJECT_FLOAT_CAST_H_

#include <optional>
#include <string>
#include <string_view>

#include "base/table.h"

namespace mlebench {

// What scikit-learn's check_array does to an object array (a DataFrame's
// `.to_numpy()` when a column holds text, or bools mixed with numbers):
// numpy's `astype(np.float64)`, which converts each element with Python's
// `float()`.

// Python's `float(text)` for a str (`text` is UTF-8), or nullopt where it
// raises ValueError. As CPython does: non-ASCII whitespace becomes a space and
// non-ASCII decimal digits (Unicode category Nd, as of Unicode 14, Python
// 3.11) become their ASCII digit, any other non-ASCII character fails; then
// ASCII whitespace (" \t\n\v\f\r") is stripped from both ends; single
// underscores are allowed between digits; what remains must be a decimal
// number (sign, digits with an optional point, optional exponent) or, in any
// case, "inf", "infinity" or "nan" with an optional sign. Values are
// correctly rounded; overflow gives +-inf, as Python does.
std::optional<double> PythonFloatFromString(std::string_view text);

// numpy's float64 value of one object-array element: bools 0/1, ints and
// floats as they are, missing as NaN, strings through PythonFloatFromString
// (nullopt where numpy raises "could not convert string to float").
std::optional<double> ObjectToFloat64(const Cell& cell);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_OBJECT_FLOAT_CAST_H_
