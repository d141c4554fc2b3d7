#ifndef MLEBENCH_PYCOMPAT_PANDAS_JSON_H_
#define MLEBENCH_PYCOMPAT_PANDAS_JSON_H_

// pandas' JSON writer (DataFrame.to_json, its vendored ultrajson encoder)
// with default options (double_precision=10, ensure_ascii=True,
// encode_html_chars=False), byte for byte, for preparers whose upstream code
// writes `df.to_json(orient="records", lines=True)`. Values are
// python_json.h's JsonValue, which is what a pandas cell holds after
// read_json: None, bool, int, float, str, list, dict.

#include <string>
#include <string_view>
#include <vector>

#include "pycompat/python_json.h"

namespace mlebench {

// ultrajson's double formatting at `precision` (0..15) significant
// fractional digits: NaN and infinities are `null` (pandas maps them to
// None before encoding); magnitudes above 1e16 - 1 or below 1e-15 (but not 0)
// use C's "%.<precision>g"; others are the whole part, '.', and the fraction
// rounded to `precision` digits (half rounded up when the digit before is odd
// or the fraction is 0, as ultrajson does) without trailing zeros, at least
// one digit ("1.0", "0.1234567891", "-2.5").
std::string PandasJsonDouble(double value, int precision = 10);

// A JSON string literal as ultrajson writes it with ensure_ascii: '"', '\\'
// and '/' backslash-escaped, \b \f \n \r \t, other control characters and
// every non-ASCII character as \u escapes in lowercase hex (surrogate pairs
// above U+FFFF). `utf8` is UTF-8 (WTF-8 lone surrogates are written as
// their own \u escape).
std::string PandasJsonString(std::string_view utf8);

// Appends `value` as ultrajson writes it: no spaces, object members in
// order, ints as their digits, floats via PandasJsonDouble.
void AppendPandasJson(const JsonValue& value, std::string& out);

// `df.to_json(orient="records", lines=True)` of a table with `columns` (in
// order) and `rows` (one value per column): each row as a JSON object on
// its own line, each line ending in '\n' (pandas >= 1.5 ends the last line
// too); no rows gives "\n", as pandas writes for an empty frame.
std::string PandasToJsonRecordsLines(const std::vector<std::string>& columns,
                                     const std::vector<std::vector<JsonValue>>& rows);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PANDAS_JSON_H_
