#ifndef MLEBENCH_BASE_PYTHON_FLOAT_H_
#define MLEBENCH_BASE_PYTHON_FLOAT_H_

#include <string>
#include <string_view>

namespace mlebench {

// Formats `value` exactly as Python's `repr(float)` does (which is also what
// pandas' `to_csv` and `json.dumps` write for a float): the shortest decimal
// string that round-trips, in fixed notation for decimal exponents -4 <= e < 16
// (with ".0" appended to integral values, "1.0", "-0.0") and in scientific
// notation otherwise ("1e-05", "1.5e+16"). NaN is "nan", infinities are "inf"
// and "-inf".
std::string FormatPythonFloat(double value);

// Python's `round(value, ndigits)` for floats: the decimal value of `value`
// rounded half-to-even at `ndigits` decimals (correctly rounded from the
// exact binary value), converted back to the nearest double.
double RoundPython(double value, int ndigits);

// The double nearest to `decimal` (ties to even), which the caller has
// checked to be `[+-]digits[.digits][(e|E)[+-]digits]` with at least one
// mantissa digit and nothing around it: what glibc's `strtod`, CPython's
// `float()` and numpy give, +-inf past the largest double, subnormals and
// signed zeros below the smallest. libstdc++'s `from_chars` (fast_float,
// several times faster than `strtod` on 17-digit decimals) for values in
// range, `strtod` for the rest.
double DecimalTextToDouble(std::string_view decimal);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_PYTHON_FLOAT_H_
