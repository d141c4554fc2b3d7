#include "grading/metrics/classification/weighted_auroc.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/auc_roc.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

struct RocPoints {
  std::vector<double> fpr;
  std::vector<double> tpr;
};

// sklearn's roc_curve(y_true, y_score, pos_label=1, drop_intermediate=True)
// without the thresholds: auc_roc's curve, divided by the totals (0 / 0 is
// NaN, as numpy makes it when a class is absent).
RocPoints RocCurve(absl::Span<const double> y_true, absl::Span<const double> y_score) {
  const std::vector<RocCount> counts = RocCurveCounts(y_true, y_score);
  const double negatives = static_cast<double>(counts.back().fp);
  const double positives = static_cast<double>(counts.back().tp);
  RocPoints roc;
  for (const RocCount& point : counts) {
    roc.fpr.push_back(static_cast<double>(point.fp) / negatives);
    roc.tpr.push_back(static_cast<double>(point.tp) / positives);
  }
  return roc;
}

// Upstream's insert_thresholds: each threshold missing from tpr goes before
// the first larger TPR, its FPR interpolated from the neighbours.
void InsertThresholds(RocPoints& roc, absl::Span<const double> thresholds) {
  for (double threshold : thresholds) {
    if (std::find(roc.tpr.begin(), roc.tpr.end(), threshold) != roc.tpr.end()) continue;
    for (size_t i = 0; i < roc.tpr.size(); ++i) {
      if (roc.tpr[i] > threshold) {
        // i > 0: tpr starts at 0 and thresholds are >= 0, so index -1 (which
        // Python would wrap to the end) never occurs.
        const size_t prev = i == 0 ? roc.tpr.size() - 1 : i - 1;
        const double fpr = roc.fpr[prev] + (roc.fpr[i] - roc.fpr[prev]) * (threshold - roc.tpr[prev]) /
                                               (roc.tpr[i] - roc.tpr[prev]);
        roc.tpr.insert(roc.tpr.begin() + i, threshold);
        roc.fpr.insert(roc.fpr.begin() + i, fpr);
        break;
      }
    }
  }
}

// sklearn's auc(x, y): the trapezoid rule (numpy's trapz, summed as numpy
// sums) in the direction x runs.
absl::StatusOr<double> SklearnAuc(const std::vector<double>& x, const std::vector<double>& y) {
  bool any_decrease = false, all_non_increase = true;
  for (size_t i = 1; i < x.size(); ++i) {
    const double dx = x[i] - x[i - 1];
    any_decrease |= dx < 0;
    all_non_increase &= dx <= 0;
  }
  double direction = 1;
  if (any_decrease) {
    if (!all_non_increase) {
      return absl::InvalidArgumentError("x is neither increasing nor decreasing");
    }
    direction = -1;
  }
  std::vector<double> terms;
  for (size_t i = 1; i < x.size(); ++i) terms.push_back((x[i] - x[i - 1]) * (y[i] + y[i - 1]) / 2.0);
  return direction * NumpySum(terms);
}

}  // namespace

absl::StatusOr<double> AlaskaWeightedAuc(absl::Span<const double> y_true,
                                         absl::Span<const double> y_pred) {
  if (y_true.size() != y_pred.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Found input variables with inconsistent numbers of samples: [",
                     y_true.size(), ", ", y_pred.size(), "]"));
  }
  if (y_true.empty()) {
    return absl::InvalidArgumentError(
        "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
  }
  for (double label : y_true) {
    if (!std::isfinite(label)) return absl::InvalidArgumentError("Input y_true contains NaN.");
  }
  for (double label : y_true) {
    if (label != std::floor(label)) {
      return absl::InvalidArgumentError("continuous format is not supported");
    }
  }
  for (double score : y_pred) {
    if (std::isnan(score)) return absl::InvalidArgumentError("Input contains NaN.");
    if (std::isinf(score)) {
      return absl::InvalidArgumentError(
          "Input contains infinity or a value too large for dtype('float64').");
    }
  }
  static constexpr double kTprThresholds[] = {0.0, 0.4, 1.0};
  static constexpr double kWeights[] = {2, 1};
  RocPoints roc = RocCurve(y_true, y_pred);
  InsertThresholds(roc, kTprThresholds);
  double metric = 0;
  for (size_t band = 0; band < 2; ++band) {
    const double y_min = kTprThresholds[band], y_max = kTprThresholds[band + 1];
    std::vector<double> xs, ys;
    for (size_t i = 0; i < roc.tpr.size(); ++i) {
      if (y_min <= roc.tpr[i] && roc.tpr[i] <= y_max) {
        xs.push_back(roc.fpr[i]);
        ys.push_back(roc.tpr[i]);
      }
    }
    if (xs.empty()) continue;
    xs.push_back(1);
    ys.push_back(y_max);
    for (double& y : ys) y -= y_min;
    ASSIGN_OR_RETURN(double area, SklearnAuc(xs, ys));
    metric += area * kWeights[band];
  }
  const double normalization = (kTprThresholds[1] - kTprThresholds[0]) * kWeights[0] +
                               (kTprThresholds[2] - kTprThresholds[1]) * kWeights[1];
  return metric / normalization;
}

}  // namespace mlebench
