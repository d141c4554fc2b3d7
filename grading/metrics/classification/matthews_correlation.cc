#include "grading/metrics/classification/matthews_correlation.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/accuracy.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

// A label as np.unique orders it: numbers by value (bools as 0/1), strings
// by content; numbers sort before strings only to keep the map total (mixed
// kinds are rejected before use).
using LabelKey = std::variant<double, std::string>;

std::optional<LabelKey> Key(const Cell& cell) {
  if (const std::string* s = std::get_if<std::string>(&cell)) return LabelKey(*s);
  if (std::optional<double> v = NumericValue(cell)) return LabelKey(*v);
  return std::nullopt;
}

}  // namespace

absl::StatusOr<double> MatthewsCorrCoef(const Column& y_true, const Column& y_pred) {
  // AccuracyScore runs sklearn's _check_targets, which matthews_corrcoef
  // shares; its NaN result for empty inputs is an error here (sklearn's
  // confusion matrix of nothing).
  RETURN_IF_ERROR(AccuracyScore(y_true, y_pred).status());
  const size_t n = y_true.cells.size();
  if (n == 0) return absl::InvalidArgumentError("matthews_corrcoef of empty inputs");
  std::map<LabelKey, size_t> labels;
  bool strings = false, numbers = false;
  std::vector<LabelKey> true_keys, pred_keys;
  for (const Column* column : {&y_true, &y_pred}) {
    for (const Cell& cell : column->cells) {
      std::optional<LabelKey> key = Key(cell);
      if (!key) return absl::InvalidArgumentError(absl::StrCat("unsupported label of type ", std::string(PythonTypeName(cell))));
      (key->index() == 0 ? numbers : strings) = true;
      labels.emplace(*key, 0);
      (column == &y_true ? true_keys : pred_keys).push_back(*std::move(key));
    }
  }
  if (strings && numbers) {
    return absl::InvalidArgumentError(
        "'<' not supported between instances of 'str' and a number (LabelEncoder)");
  }
  size_t index = 0;
  for (auto& [key, i] : labels) i = index++;
  std::vector<double> t_sum(labels.size(), 0), p_sum(labels.size(), 0);
  double n_correct = 0;
  for (size_t row = 0; row < n; ++row) {
    const size_t t = labels.at(true_keys[row]);
    const size_t p = labels.at(pred_keys[row]);
    t_sum[t] += 1;
    p_sum[p] += 1;
    n_correct += t == p;
  }
  // Counts are whole numbers far below 2**53, so these sums are exact in any
  // order, as numpy's are.
  const double n_samples = static_cast<double>(n);
  double t_dot_p = 0, p_dot_p = 0, t_dot_t = 0;
  for (size_t i = 0; i < labels.size(); ++i) {
    t_dot_p += t_sum[i] * p_sum[i];
    p_dot_p += p_sum[i] * p_sum[i];
    t_dot_t += t_sum[i] * t_sum[i];
  }
  const double cov_ytyp = n_correct * n_samples - t_dot_p;
  const double cov_ypyp = n_samples * n_samples - p_dot_p;
  const double cov_ytyt = n_samples * n_samples - t_dot_t;
  if (cov_ypyp * cov_ytyt == 0) return 0.0;
  return cov_ytyp / std::sqrt(cov_ytyt * cov_ypyp);
}

}  // namespace mlebench
