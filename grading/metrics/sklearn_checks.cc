#include "grading/metrics/sklearn_checks.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace mlebench {

absl::Status AssertAllFinite(absl::Span<const double> values, std::string_view input_name) {
  for (double v : values) {
    if (std::isfinite(v)) continue;
    const std::string name = input_name.empty() ? "" : absl::StrCat(std::string(input_name), " ");
    if (std::isnan(v)) {
      return absl::InvalidArgumentError(absl::StrCat("Input ", name, "contains NaN."));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "Input ", name, "contains infinity or a value too large for dtype('float64')."));
  }
  return absl::OkStatus();
}

absl::Status CheckConsistentLength(size_t a, size_t b) {
  if (a == b) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Found input variables with inconsistent numbers of samples: [", a, ", ", b, "]"));
}

std::string ShapeRepr(size_t rows, size_t cols, bool one_dimensional) {
  if (one_dimensional) return absl::StrCat("(", rows, ",)");
  return absl::StrCat("(", rows, ", ", cols, ")");
}

absl::Status CheckNonEmpty(size_t rows, size_t cols, bool one_dimensional) {
  if (rows == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Found array with 0 sample(s) (shape=", ShapeRepr(rows, cols, one_dimensional),
                     ") while a minimum of 1 is required."));
  }
  if (!one_dimensional && cols == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Found array with 0 feature(s) (shape=", ShapeRepr(rows, cols, false),
                     ") while a minimum of 1 is required."));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
