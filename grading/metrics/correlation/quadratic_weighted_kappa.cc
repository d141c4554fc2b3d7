#include "grading/metrics/correlation/quadratic_weighted_kappa.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// A class label: a number (by value) or a string.
using Label = std::variant<double, std::string>;

// sklearn's type_of_target and label extraction for one column.
absl::StatusOr<std::vector<Label>> Labels(const Column& column) {
  std::vector<Label> labels;
  labels.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    if (const auto* s = std::get_if<std::string>(&cell)) {
      labels.push_back(*s);
    } else if (column.dtype == Dtype::kObject) {
      // An object array whose first item is not a string is of type
      // "unknown"; one that starts with strings and holds a NaN or a bool
      // mixes label types. sklearn rejects both.
      return absl::InvalidArgumentError(
          "Mix of label input types (string and number) or unknown target type");
    } else if (const auto* b = std::get_if<bool>(&cell)) {
      labels.push_back(*b ? 1.0 : 0.0);
    } else if (const auto* i = std::get_if<int64_t>(&cell)) {
      labels.push_back(static_cast<double>(*i));
    } else {
      const double v = std::holds_alternative<double>(cell) ? std::get<double>(cell) : NAN;
      labels.push_back(v);
    }
  }
  // Float columns: type_of_target calls them continuous unless every value
  // equals its int64 cast (and first rejects NaN and infinity).
  if (column.dtype == Dtype::kFloat64) {
    bool continuous = false;
    for (const Label& label : labels) {
      const double v = std::get<double>(label);
      if (v != std::trunc(v) || v < -0x1p63 || v >= 0x1p63) continuous = true;
    }
    if (continuous) {
      for (const Label& label : labels) {
        const double v = std::get<double>(label);
        if (std::isnan(v)) return absl::InvalidArgumentError("Input contains NaN.");
      }
      for (const Label& label : labels) {
        if (std::isinf(std::get<double>(label))) {
          return absl::InvalidArgumentError(
              "Input contains infinity or a value too large for dtype('float64').");
        }
      }
      return absl::InvalidArgumentError(
          "Classification metrics can't handle a mix of continuous and multiclass targets");
    }
  }
  return labels;
}

absl::Status InconsistentLengths(size_t n1, size_t n2) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Found input variables with inconsistent numbers of samples: [", n1, ", ", n2, "]"));
}

// The sorted distinct values of both label lists: inserted one by one into
// a sorted list while they are few (class labels: a 2-million-item sort was
// most of a million-row grade), else by sorting them all.
template <typename L>
std::vector<L> SortedClasses(const std::vector<L>& labels1, const std::vector<L>& labels2) {
  constexpr size_t kFewClasses = 64;
  std::vector<L> classes;
  const L* last = nullptr;  // the label seen last, in place: runs repeat it
  for (const std::vector<L>* labels : {&labels1, &labels2}) {
    for (const L& label : *labels) {
      if (last != nullptr && *last == label) continue;
      last = &label;
      auto it = std::lower_bound(classes.begin(), classes.end(), label);
      if (it != classes.end() && *it == label) continue;
      if (classes.size() == kFewClasses) {
        classes = labels1;
        classes.insert(classes.end(), labels2.begin(), labels2.end());
        std::sort(classes.begin(), classes.end());
        classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
        return classes;
      }
      classes.insert(it, label);
    }
  }
  return classes;
}

// The kappa from the k x k confusion matrix of n > 0 label pairs (row: the
// first list's class, column: the second's).
double KappaOfConfusion(const std::vector<int64_t>& confusion, size_t k, size_t n) {
  std::vector<int64_t> column_sums(k, 0), row_sums(k, 0);
  for (size_t r = 0; r < k; ++r) {
    for (size_t c = 0; c < k; ++c) {
      row_sums[r] += confusion[r * k + c];
      column_sums[c] += confusion[r * k + c];
    }
  }
  const double total = static_cast<double>(n);
  int64_t observed = 0;
  std::vector<double> weighted_expected(k * k);
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = 0; j < k; ++j) {
      const int64_t d = static_cast<int64_t>(j) - static_cast<int64_t>(i);
      const int64_t weight = d * d;
      observed += weight * confusion[i * k + j];
      const double expected = static_cast<double>(column_sums[i] * row_sums[j]) / total;
      weighted_expected[i * k + j] = static_cast<double>(weight) * expected;
    }
  }
  return 1.0 - static_cast<double>(observed) / NumpySum(weighted_expected);
}

// The kappa of two label lists of equal, non-zero length.
template <typename L>
absl::StatusOr<double> KappaOfLabels(const std::vector<L>& labels1, const std::vector<L>& labels2) {
  const size_t n = labels1.size();
  const std::vector<L> classes = SortedClasses(labels1, labels2);
  const size_t k = classes.size();
  auto index_of = [&](const L& label) {
    return static_cast<size_t>(std::lower_bound(classes.begin(), classes.end(), label) -
                               classes.begin());
  };

  std::vector<int64_t> confusion(k * k, 0);
  for (size_t i = 0; i < n; ++i) {
    ++confusion[index_of(labels1[i]) * k + index_of(labels2[i])];
  }
  return KappaOfConfusion(confusion, k, n);
}

// The kappa of two int64 label lists of equal, non-zero length whose values
// lie within +-2**53 (so that as float64 they keep their values, their
// order and their distinctness: the classes are those KappaOfLabels<double>
// finds) and span fewer than kDenseSpan values: each value's class is
// looked up in a table over that span instead of searched for, and no
// float64 copy is made. nullopt for other lists.
std::optional<double> KappaOfDenseInt64Labels(std::span<const int64_t> y1,
                                              std::span<const int64_t> y2) {
  constexpr int64_t kDenseSpan = int64_t{1} << 16;
  constexpr int64_t kExact = int64_t{1} << 53;
  int64_t lo = y1[0], hi = y1[0];
  for (std::span<const int64_t> y : {y1, y2}) {
    for (const int64_t v : y) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo < -kExact || hi > kExact || hi - lo >= kDenseSpan) return std::nullopt;
  // class_of[v - lo]: v's class (its rank among the values present), -1
  // for values absent from both lists.
  std::vector<int32_t> class_of(static_cast<size_t>(hi - lo) + 1, -1);
  for (std::span<const int64_t> y : {y1, y2}) {
    for (const int64_t v : y) class_of[static_cast<size_t>(v - lo)] = 0;
  }
  int32_t k = 0;
  for (int32_t& c : class_of) {
    if (c == 0) c = k++;
  }
  const size_t classes = static_cast<size_t>(k);
  std::vector<int64_t> confusion(classes * classes, 0);
  const size_t n = y1.size();
  for (size_t i = 0; i < n; ++i) {
    ++confusion[static_cast<size_t>(class_of[static_cast<size_t>(y1[i] - lo)]) * classes +
                static_cast<size_t>(class_of[static_cast<size_t>(y2[i] - lo)])];
  }
  return KappaOfConfusion(confusion, classes, n);
}

}  // namespace

absl::StatusOr<double> QuadraticWeightedKappa(const Column& y1, const Column& y2) {
  const size_t n = y1.cells.size();
  if (n != y2.cells.size()) return InconsistentLengths(n, y2.cells.size());
  if (n == 0) return absl::InvalidArgumentError("y_true and y_pred are empty");
  ASSIGN_OR_RETURN(std::vector<Label> labels1, Labels(y1));
  ASSIGN_OR_RETURN(std::vector<Label> labels2, Labels(y2));
  if ((labels1)[0].index() != (labels2)[0].index()) {
    return absl::InvalidArgumentError("Mix of label input types (string and number)");
  }
  return KappaOfLabels<Label>(labels1, labels2);
}

absl::StatusOr<double> QuadraticWeightedKappa(std::span<const int64_t> y1,
                                              std::span<const int64_t> y2) {
  const size_t n = y1.size();
  if (n != y2.size()) return InconsistentLengths(n, y2.size());
  if (n == 0) return absl::InvalidArgumentError("y_true and y_pred are empty");
  if (std::optional<double> kappa = KappaOfDenseInt64Labels(y1, y2)) return *kappa;
  // Labels as the Column overload makes them of int64 cells: by value as
  // float64.
  std::vector<double> labels1(n), labels2(n);
  for (size_t i = 0; i < n; ++i) labels1[i] = static_cast<double>(y1[i]);
  for (size_t i = 0; i < n; ++i) labels2[i] = static_cast<double>(y2[i]);
  return KappaOfLabels<double>(labels1, labels2);
}

}  // namespace mlebench
