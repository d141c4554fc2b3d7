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

// x - mean(x), divided by its largest magnitude.
std::vector<double> CentredAndScaled(absl::Span<const double> v) {
  const double mean = NumpyMean(v);
  std::vector<double> centred(v.size());
  double largest = 0.0;
  for (size_t i = 0; i < v.size(); ++i) {
    centred[i] = v[i] - mean;
    // std::max would drop a NaN; numpy's max propagates it.
    const double magnitude = std::abs(centred[i]);
    if (std::isnan(magnitude) || !(magnitude <= largest)) largest = magnitude;
  }
  for (double& c : centred) c /= largest;
  return centred;
}

double Norm(absl::Span<const double> v) {
  std::vector<double> squares(v.size());
  for (size_t i = 0; i < v.size(); ++i) squares[i] = v[i] * v[i];
  return std::sqrt(NumpySum(squares));
}

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
  if (IsConstant(x) || IsConstant(y)) return kNaN;

  std::vector<double> xm = CentredAndScaled(x);
  std::vector<double> ym = CentredAndScaled(y);
  const double x_norm = Norm(xm);
  const double y_norm = Norm(ym);
  // `xm/normxm * ym/normym`, evaluated left to right as numpy does.
  std::vector<double> products(n);
  for (size_t i = 0; i < n; ++i) products[i] = xm[i] / x_norm * ym[i] / y_norm;
  double r = NumpySum(products);
  if (std::isnan(r)) return r;
  r = std::clamp(r, -1.0, 1.0);
  // scipy rounds the two-value case to exactly -1 or 1.
  return n == 2 ? std::nearbyint(r) : r;
}

absl::StatusOr<double> PearsonCorrelation(const Column& x, const Column& y) {
  ASSIGN_OR_RETURN(std::vector<double> x_values, ToFloat64(x));
  ASSIGN_OR_RETURN(std::vector<double> y_values, ToFloat64(y));
  return PearsonCorrelation(x_values, y_values);
}

}  // namespace mlebench
