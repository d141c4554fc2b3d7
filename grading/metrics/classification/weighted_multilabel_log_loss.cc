#include "grading/metrics/classification/weighted_multilabel_log_loss.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {

absl::StatusOr<double> WeightedMultilabelLogLoss(const MatrixView& y_true, const MatrixView& y_pred,
                                                 absl::Span<const double> negative_weights,
                                                 absl::Span<const double> positive_weights) {
  if (!y_true.size_ok() || !y_pred.size_ok() || y_true.rows != y_pred.rows ||
      y_true.cols != y_pred.cols || negative_weights.size() != y_true.cols ||
      positive_weights.size() != y_true.cols) {
    return absl::InvalidArgumentError(
        absl::StrCat("shapes differ: y_true ", y_true.rows, "x", y_true.cols, ", y_pred ",
                     y_pred.rows, "x", y_pred.cols, ", ", negative_weights.size(), " and ",
                     positive_weights.size(), " weights"));
  }
  if (y_true.rows == 0) return absl::InvalidArgumentError("no rows to average");
  constexpr double kEpsilon = 1e-15;
  std::vector<double> row_losses(y_true.rows);
  std::vector<double> weighted_losses(y_true.cols), weights(y_true.cols);
  for (size_t i = 0; i < y_true.rows; ++i) {
    for (size_t j = 0; j < y_true.cols; ++j) {
      const double y = y_true.at(i, j);
      double p = y_pred.at(i, j);
      if (!std::isnan(p)) p = std::clamp(p, kEpsilon, 1 - kEpsilon);
      const double loss = -(y * std::log(p) + (1 - y) * std::log(1 - p));
      weights[j] = y * positive_weights[j] + (1 - y) * negative_weights[j];
      weighted_losses[j] = loss * weights[j];
    }
    // Upstream's matrices come from DataFrame.to_numpy(), which is
    // column-major: with several rows numpy reduces axis 1 by adding whole
    // columns in turn, left to right; a single row is contiguous, and numpy
    // sums it pairwise (NumpySum).
    double loss_sum = 0, weight_sum = 0;
    if (y_true.rows == 1) {
      loss_sum = NumpySum(weighted_losses);
      weight_sum = NumpySum(weights);
    } else {
      for (size_t j = 0; j < y_true.cols; ++j) {
        loss_sum += weighted_losses[j];
        weight_sum += weights[j];
      }
    }
    row_losses[i] = loss_sum / weight_sum;
  }
  return NumpyMean(row_losses);
}

}  // namespace mlebench
