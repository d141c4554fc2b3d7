#include "grading/metrics/correlation/spearman_correlation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One value of the stacked array as spearmanr compares it: a number (long
// double holds every int64 and every double exactly) or a string.
struct RankKey {
  bool is_text = false;
  long double number = 0;  // NaN for a missing value
  std::string_view text;
};

bool KeysEqual(const RankKey& a, const RankKey& b) {
  if (a.is_text != b.is_text) return false;
  return a.is_text ? a.text == b.text : a.number == b.number;
}

bool IsConstant(const std::vector<RankKey>& keys) {
  return std::all_of(keys.begin(), keys.end(),
                     [&](const RankKey& k) { return KeysEqual(keys[0], k); });
}

bool HasNaN(const std::vector<RankKey>& keys) {
  return std::any_of(keys.begin(), keys.end(),
                     [](const RankKey& k) { return !k.is_text && std::isnan(k.number); });
}

// scipy's rankdata(method="average"). Keys hold no NaN here.
absl::StatusOr<std::vector<double>> AverageRanks(const std::vector<RankKey>& keys) {
  const size_t n = keys.size();
  const bool text = keys[0].is_text;
  for (const RankKey& k : keys) {
    if (k.is_text != text) {
      return absl::InvalidArgumentError(
          "'<' not supported between instances of 'str' and a number");
    }
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    return text ? keys[i].text < keys[j].text : keys[i].number < keys[j].number;
  });
  std::vector<double> ranks(n);
  for (size_t begin = 0; begin < n;) {
    size_t end = begin + 1;
    while (end < n && KeysEqual(keys[order[end]], keys[order[begin]])) ++end;
    // Positions begin+1 .. end share their mean.
    const double rank = 0.5 * static_cast<double>(begin + 1 + end);
    for (size_t k = begin; k < end; ++k) ranks[order[k]] = rank;
    begin = end;
  }
  return ranks;
}

// np.corrcoef(column_stack((rx, ry)), rowvar=False)[1, 0].
double RankCorrelation(const std::vector<double>& rx, const std::vector<double>& ry) {
  const size_t n = rx.size();
  auto mean = [n](const std::vector<double>& r) {
    double sum = 0;
    for (double v : r) sum += v;
    return sum / static_cast<double>(n);
  };
  const double mx = mean(rx), my = mean(ry);
  double sxx = 0, syy = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dx = rx[i] - mx, dy = ry[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  // np.cov multiplies by 1 / (n - 1); corrcoef divides by the row's then
  // the column's standard deviation.
  const double factor = 1.0 / static_cast<double>(n - 1);
  const double sx = std::sqrt(sxx * factor), sy = std::sqrt(syy * factor);
  const double r = sxy * factor / sy / sx;
  return std::clamp(r, -1.0, 1.0);
}

// scipy 1.14's _contains_nan on the stacked array: a float64 array holds NaN
// when `np.isnan(np.max(a))`, i.e. when a value is NaN (+inf and -inf are
// ranked like any other value); an object array is checked value by value.
// (scipy 1.10 tested `np.isnan(np.sum(a))` instead, so that an infinity, or
// finite values whose partial sums overflow both ways, made the result NaN.)
bool StackContainsNaN(const std::vector<RankKey>& x, const std::vector<RankKey>& y) {
  return HasNaN(x) || HasNaN(y);
}

absl::StatusOr<double> Spearman(const std::vector<RankKey>& x, const std::vector<RankKey>& y) {
  if (x.size() != y.size()) {
    return absl::InvalidArgumentError(absl::StrCat("spearmanr: inputs have different lengths (",
                                                   x.size(), " and ", y.size(), ")"));
  }
  if (x.size() <= 1) return kNaN;
  if (IsConstant(x) || IsConstant(y)) return kNaN;
  if (StackContainsNaN(x, y)) return kNaN;
  ASSIGN_OR_RETURN(std::vector<double> rx, AverageRanks(x));
  ASSIGN_OR_RETURN(std::vector<double> ry, AverageRanks(y));
  return RankCorrelation(rx, ry);
}

std::vector<RankKey> NumberKeys(absl::Span<const double> values) {
  std::vector<RankKey> keys(values.size());
  for (size_t i = 0; i < values.size(); ++i) keys[i].number = values[i];
  return keys;
}

// Whether numpy's column_stack of columns of these dtypes is float64 (rather
// than object, int64 or bool).
bool StacksAsFloat64(Dtype a, Dtype b) {
  return a != Dtype::kObject && b != Dtype::kObject &&
         (a == Dtype::kFloat64 || b == Dtype::kFloat64);
}

// `column`'s values as numpy holds them once stacked with a column of dtype
// `other`.
std::vector<RankKey> ColumnKeys(const Column& column, Dtype other) {
  const bool to_float64 = StacksAsFloat64(column.dtype, other);
  std::vector<RankKey> keys(column.cells.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    RankKey& key = keys[i];
    const Cell& cell = column.cells[i];
    if (const auto* s = std::get_if<std::string>(&cell)) {
      key.is_text = true;
      key.text = *s;
    } else if (const auto* b = std::get_if<bool>(&cell)) {
      key.number = *b ? 1 : 0;
    } else if (const auto* n = std::get_if<int64_t>(&cell)) {
      key.number = to_float64 ? static_cast<long double>(static_cast<double>(*n))
                              : static_cast<long double>(*n);
    } else if (const auto* d = std::get_if<double>(&cell)) {
      key.number = *d;
    } else {
      key.number = kNaN;  // missing
    }
  }
  return keys;
}

}  // namespace

absl::StatusOr<double> SpearmanCorrelation(absl::Span<const double> x, absl::Span<const double> y) {
  return Spearman(NumberKeys(x), NumberKeys(y));
}

absl::StatusOr<double> SpearmanCorrelation(const Column& x, const Column& y) {
  return Spearman(ColumnKeys(x, y.dtype), ColumnKeys(y, x.dtype));
}

}  // namespace mlebench
