#ifndef MLEBENCH_PYCOMPAT_PYTHON_UNICODE_H_
#define MLEBENCH_PYCOMPAT_PYTHON_UNICODE_H_

#include <optional>
#include <string>
#include <string_view>

namespace mlebench {

// CPython's _PyUnicode_TransformDecimalAndSpaceToASCII, the first step of
// both int() and float() of a str (`text` is UTF-8): non-ASCII whitespace
// (str.isspace()) becomes a space and each non-ASCII decimal digit (Unicode
// category Nd, as of Unicode 14, Python 3.11: "٣" and "３" are 3) its ASCII
// digit; ASCII passes through. nullopt where CPython writes '?' (any other
// non-ASCII character, which no number contains) or the text is not UTF-8.
std::optional<std::string> PythonDecimalAndSpaceToAscii(std::string_view text);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_PYTHON_UNICODE_H_
