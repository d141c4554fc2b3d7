#include "grading/metrics/classification/log_loss.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// A numpy scalar label as sklearn prints it: integral floats from integer
// columns print as integers.
std::string LabelRepr(double v) {
  if (IsNumpyIntegral(v)) return absl::StrCat(static_cast<int64_t>(v));
  return FormatPythonFloat(v);
}

// numpy's repr of a 1-D label array, e.g. "[0 1 2]".
std::string LabelsRepr(const std::vector<double>& labels) {
  return absl::StrCat(
      "[",
      absl::StrJoin(labels, " ", [](std::string* out, double v) { out->append(LabelRepr(v)); }),
      "]");
}

// The transformed labels: LabelBinarizer's output, as a function of (row,
// column), plus the class list for messages.
struct BinarizedLabels {
  // Indicator matrix used as is (k >= 2 columns), or nullptr.
  const MatrixView* indicator = nullptr;
  // Otherwise: per-row class index into `classes`.
  std::vector<uint32_t> class_index;
  std::vector<double> classes;
  size_t num_columns = 0;  // transformed_labels.shape[1] after sklearn's binary append

  double value(size_t row, size_t col) const {
    if (indicator != nullptr) return indicator->at(row, col);
    return class_index[row] == col ? 1.0 : 0.0;
  }
};

absl::StatusOr<BinarizedLabels> Binarize(const MatrixView& y_true) {
  BinarizedLabels out;
  const absl::Span<const double> values = y_true.values;
  bool integral = true;
  for (double v : values) integral = integral && IsNumpyIntegral(v);

  if (y_true.cols >= 2) {
    // is_multilabel: at most two distinct values, integral.
    std::vector<double> distinct;
    for (double v : values) {
      if (std::find(distinct.begin(), distinct.end(), v) == distinct.end()) distinct.push_back(v);
      if (distinct.size() > 2) break;
    }
    if (integral && distinct.size() <= 2) {
      out.indicator = &y_true;
      out.num_columns = y_true.cols;
      for (size_t c = 0; c < y_true.cols; ++c) out.classes.push_back(static_cast<double>(c));
      return out;
    }
    if (!integral) {
      RETURN_IF_ERROR(AssertAllFinite(values, "y"));
    }
    return absl::InvalidArgumentError(
        "Multioutput target data is not supported with label binarization");
  }

  // A column of labels.
  if (!integral) {
    RETURN_IF_ERROR(AssertAllFinite(values, "y"));
    return absl::InvalidArgumentError("Unknown label type: continuous (non-integral) labels");
  }
  // np.unique: the sorted distinct labels. They are usually a few classes,
  // gathered in one pass; only many distinct values sort the whole column.
  constexpr size_t kFewClasses = 64;
  bool few = true;
  for (const double v : values) {
    if (std::find(out.classes.begin(), out.classes.end(), v) != out.classes.end()) continue;
    if (out.classes.size() == kFewClasses) {
      few = false;
      break;
    }
    out.classes.push_back(v);
  }
  if (!few) out.classes.assign(values.begin(), values.end());
  std::sort(out.classes.begin(), out.classes.end());
  out.classes.erase(std::unique(out.classes.begin(), out.classes.end()), out.classes.end());
  if (out.classes.size() == 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("y_true contains only one label (", LabelRepr(out.classes[0]),
                     "). Please provide the true labels explicitly through the labels argument."));
  }
  out.class_index.reserve(values.size());
  for (double v : values) {
    out.class_index.push_back(static_cast<uint32_t>(
        std::lower_bound(out.classes.begin(), out.classes.end(), v) - out.classes.begin()));
  }
  // Two classes give one column, to which sklearn prepends its complement:
  // the same as one-hot over the two classes.
  out.num_columns = out.classes.size();
  return out;
}

absl::StatusOr<double> LogLossImpl(const MatrixView& y_true, const MatrixView& y_pred,
                                   bool y_pred_one_dimensional) {
  if (!y_true.size_ok() || !y_pred.size_ok()) {
    return absl::InvalidArgumentError("matrix values do not match its rows * cols");
  }
  // check_array(y_pred).
  RETURN_IF_ERROR(CheckNonEmpty(y_pred.rows, y_pred.cols, y_pred_one_dimensional));
  RETURN_IF_ERROR(AssertAllFinite(y_pred.values, ""));
  RETURN_IF_ERROR(CheckConsistentLength(y_pred.rows, y_true.rows));
  if (y_true.cols == 0) return CheckNonEmpty(y_true.rows, 0, /*one_dimensional=*/false);

  ASSIGN_OR_RETURN(BinarizedLabels labels, Binarize(y_true));

  const bool positive_only = y_pred.cols == 1;  // [1 - p, p]
  const size_t pred_columns = positive_only ? 2 : y_pred.cols;
  if (labels.num_columns != pred_columns) {
    return absl::InvalidArgumentError(absl::StrCat(
        "y_true and y_pred contain different number of classes ", labels.num_columns, ", ",
        pred_columns,
        ". Please provide the true labels explicitly through the labels argument. Classes found "
        "in y_true: ",
        LabelsRepr(labels.classes)));
  }

  // Per-row losses, summed as np.mean does (block by block, so memory stays
  // flat for very long inputs), then divided by the row count.
  const size_t k = pred_columns;
  std::vector<double> row_terms(k);
  NumpyStreamSum total;
  for (size_t r = 0; r < y_pred.rows; ++r) {
    for (size_t c = 0; c < k; ++c) {
      const double p =
          positive_only ? (c == 0 ? 1.0 - y_pred.at(r, 0) : y_pred.at(r, 0)) : y_pred.at(r, c);
      row_terms[c] = LogLossTerm(labels.value(r, c), p);
    }
    total.Add(-NumpySum(row_terms));
  }
  return total.Sum() / static_cast<double>(y_pred.rows);
}

}  // namespace

absl::StatusOr<double> LogLoss(MatrixView y_true, MatrixView y_pred) {
  return LogLossImpl(y_true, y_pred, /*y_pred_one_dimensional=*/false);
}

absl::StatusOr<double> LogLoss(absl::Span<const double> y_true, absl::Span<const double> y_pred) {
  return LogLossImpl(MatrixView{y_true, y_true.size(), 1}, MatrixView{y_pred, y_pred.size(), 1},
                     /*y_pred_one_dimensional=*/true);
}

}  // namespace mlebench
