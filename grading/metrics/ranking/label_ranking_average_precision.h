#ifndef MLEBENCH_GRADING_METRICS_RANKING_LABEL_RANKING_AVERAGE_PRECISION_H_
#define MLEBENCH_GRADING_METRICS_RANKING_LABEL_RANKING_AVERAGE_PRECISION_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "grading/metrics/matrix_view.h"

namespace mlebench {

// scikit-learn's label_ranking_average_precision_score(y_true, y_score,
// sample_weight) on dense n_samples x n_labels matrices (the same code in
// scikit-learn 1.2 and 1.5). For each sample, each relevant label j (y_true
// 1) contributes L_j / rank_j, where rank_j counts the labels scored >= its
// score and L_j the relevant ones among them (ties count against it, as
// scipy's rankdata(method="max") ranks them); the sample's score is numpy's
// mean of these in column order, or 1 when no label or every label is
// relevant. The result is the sum over samples (in order) of score times
// weight, divided by numpy's sum of the weights (or by n_samples when
// `sample_weight` is empty), so it is bit-identical with scikit-learn.
// InvalidArgumentError where scikit-learn raises ValueError: differing
// shapes or weight count, no samples, a non-finite score, or a y_true value
// other than 0/1 (not a multilabel indicator).
absl::StatusOr<double> LabelRankingAveragePrecision(const MatrixView& y_true,
                                                    const MatrixView& y_score,
                                                    absl::Span<const double> sample_weight = {});

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_RANKING_LABEL_RANKING_AVERAGE_PRECISION_H_
