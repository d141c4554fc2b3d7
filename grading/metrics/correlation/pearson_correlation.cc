#include "grading/metrics/correlation/pearson_correlation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool IsConstant(absl::Span<const double> v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; });
}

// x - mean(x).
std::vector<double> Centred(absl::Span<const double> v) {
  const double mean = NumpyMean(v);
  std::vector<double> centred(v.size());
  for (size_t i = 0; i < v.size(); ++i) centred[i] = v[i] - mean;
  return centred;
}

// `xmax * np.linalg.norm(xm / xmax, axis=-1)` with xmax = max(|xm|) (numpy's
// max propagates a NaN; the norm along an axis is sqrt of the pairwise sum of
// squares, no BLAS).
double ScaledNorm(absl::Span<const double> xm) {
  double largest = 0.0;
  for (double c : xm) {
    const double magnitude = std::abs(c);
    if (std::isnan(magnitude) || !(magnitude <= largest)) largest = magnitude;
  }
  std::vector<double> squares(xm.size());
  for (size_t i = 0; i < xm.size(); ++i) {
    const double scaled = xm[i] / largest;
    squares[i] = scaled * scaled;
  }
  return largest * std::sqrt(NumpySum(squares));
}

// np.sign: -1, 0 (also for -0.0) or 1; NaN stays NaN.
double NumpySign(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v == 0 ? 0.0 : v; }

absl::StatusOr<std::vector<double>> ToFloat64(const Column& column) {
  if (column.dtype == Dtype::kObject) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pearsonr does not support object arrays (column '", column.name, "' is not numeric)"));
  }
  std::vector<double> values;
  values.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    if (const auto* b = std::get_if<bool>(&cell)) {
      values.push_back(*b ? 1.0 : 0.0);
    } else if (const auto* i = std::get_if<int64_t>(&cell)) {
      values.push_back(static_cast<double>(*i));
    } else if (const auto* d = std::get_if<double>(&cell)) {
      values.push_back(*d);
    } else {
      values.push_back(kNaN);  // missing
    }
  }
  return values;
}

}  // namespace

absl::StatusOr<double> PearsonCorrelation(absl::Span<const double> x, absl::Span<const double> y) {
  const size_t n = x.size();
  if (n != y.size()) {
    return absl::InvalidArgumentError("`x` and `y` must have the same length along `axis`.");
  }
  if (n < 2) return absl::InvalidArgumentError("`x` and `y` must have length at least 2.");
  // Two values: the product of the signs of their differences, before (and
  // whatever) the constant check, so two equal values give 0, not NaN.
  if (n == 2) return NumpySign(x[1] - x[0]) * NumpySign(y[1] - y[0]);
  const bool constant = IsConstant(x) || IsConstant(y);

  const std::vector<double> xm = Centred(x), ym = Centred(y);
  const double x_norm = ScaledNorm(xm), y_norm = ScaledNorm(ym);
  // `xm/normxm * ym/normym`, evaluated left to right as numpy does.
  std::vector<double> products(n);
  for (size_t i = 0; i < n; ++i) products[i] = xm[i] / x_norm * ym[i] / y_norm;
  const double r = NumpySum(products);
  if (constant) return kNaN;
  return std::isnan(r) ? r : std::clamp(r, -1.0, 1.0);
}

absl::StatusOr<double> PearsonCorrelation(const Column& x, const Column& y) {
  ASSIGN_OR_RETURN(std::vector<double> x_values, ToFloat64(x));
  ASSIGN_OR_RETURN(std::vector<double> y_values, ToFloat64(y));
  return PearsonCorrelation(x_values, y_values);
}

}  // namespace mlebench
