#include "grading/metrics/regression_target.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/object_float_cast.h"

namespace mlebench {
namespace {

// Python's repr of a str, for numpy's message (ASCII printable text and the
// common escapes; other characters are passed through as Python prints them).
std::string PythonStrRepr(std::string_view text) {
  const bool use_double =
      text.find('\'') != std::string_view::npos && text.find('"') == std::string_view::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xF]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back(quote);
  return out;
}

}  // namespace

absl::StatusOr<RegressionTarget> ToRegressionTarget(const Column& column) {
  RegressionTarget target;
  target.is_bool = column.dtype == Dtype::kBool;
  target.is_int64 = column.dtype == Dtype::kInt64;
  target.values.reserve(column.cells.size());
  if (target.is_bool || target.is_int64) {
    target.ints.reserve(column.cells.size());
    for (const Cell& cell : column.cells) {
      if (const auto* b = std::get_if<bool>(&cell)) {
        target.ints.push_back(*b ? 1 : 0);
      } else if (const auto* i = std::get_if<int64_t>(&cell)) {
        target.ints.push_back(*i);
      } else {
        target.ints.clear();  // not a plain bool/int64 column after all
        target.is_bool = target.is_int64 = false;
        break;
      }
    }
  }
  for (const Cell& cell : column.cells) {
    std::optional<double> v = ObjectToFloat64(cell);
    if (!v) {
      return absl::InvalidArgumentError(absl::StrCat("could not convert string to float: ",
                                                     PythonStrRepr(std::get<std::string>(cell))));
    }
    target.values.push_back(*v);
  }
  return target;
}

absl::Status CheckRegressionValues(absl::Span<const double> values) {
  RETURN_IF_ERROR(AssertAllFinite(values, ""));
  return CheckNonEmpty(values.size(), 1, /*one_dimensional=*/true);
}

absl::StatusOr<RegressionTarget> CheckRegressionTarget(const Column& column) {
  ASSIGN_OR_RETURN(RegressionTarget target, ToRegressionTarget(column));
  RETURN_IF_ERROR(CheckRegressionValues(target.values));
  return target;
}

}  // namespace mlebench
