#include "grading/metrics/ranking/label_ranking_average_precision.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {

absl::StatusOr<double> LabelRankingAveragePrecision(const MatrixView& y_true,
                                                    const MatrixView& y_score,
                                                    absl::Span<const double> sample_weight) {
  if (!y_true.size_ok() || !y_score.size_ok()) {
    return absl::InvalidArgumentError("matrix values do not match its shape");
  }
  if (y_true.rows != y_score.rows ||
      (!sample_weight.empty() && sample_weight.size() != y_true.rows)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Found input variables with inconsistent numbers of samples: [", y_true.rows, ", ",
        y_score.rows, sample_weight.empty() ? "" : absl::StrCat(", ", sample_weight.size()), "]"));
  }
  if (y_true.rows == 0 || y_true.cols == 0) {
    return absl::InvalidArgumentError("Found array with 0 sample(s) or 0 feature(s)");
  }
  for (double score : y_score.values) {
    if (!std::isfinite(score)) {
      return absl::InvalidArgumentError("Input contains NaN, infinity or a value too large");
    }
  }
  if (y_true.cols != y_score.cols) {
    return absl::InvalidArgumentError("y_true and y_score have different shape");
  }
  for (double label : y_true.values) {
    if (label != 0 && label != 1) {
      return absl::InvalidArgumentError("y_true is not a multilabel indicator: format is not supported");
    }
  }
  double total = 0;  // a Python float, summed in sample order
  std::vector<double> precisions;
  for (size_t i = 0; i < y_true.rows; ++i) {
    const absl::Span<const double> truth = y_true.row(i);
    const absl::Span<const double> scores = y_score.row(i);
    precisions.clear();
    for (size_t j = 0; j < truth.size(); ++j) {
      if (truth[j] == 0) continue;
      double rank = 0, relevant_rank = 0;
      for (size_t k = 0; k < truth.size(); ++k) {
        if (scores[k] >= scores[j]) {
          ++rank;
          relevant_rank += truth[k];
        }
      }
      precisions.push_back(relevant_rank / rank);
    }
    double score = 1.0;
    if (!precisions.empty() && precisions.size() != truth.size()) score = NumpyMean(precisions);
    if (!sample_weight.empty()) score *= sample_weight[i];
    total += score;
  }
  return total / (sample_weight.empty() ? static_cast<double>(y_true.rows) : NumpySum(sample_weight));
}

}  // namespace mlebench
