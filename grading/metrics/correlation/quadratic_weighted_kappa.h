#ifndef MLEBENCH_GRADING_METRICS_CORRELATION_QUADRATIC_WEIGHTED_KAPPA_H_
#define MLEBENCH_GRADING_METRICS_CORRELATION_QUADRATIC_WEIGHTED_KAPPA_H_

#include <cstdint>
#include <span>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// scikit-learn's `cohen_kappa_score(y1, y2, weights="quadratic")` (no labels,
// no sample weights) on two pandas columns, as sklearn 1.2 to 1.5 compute it.
//
// Labels: the sorted union of both columns' values (numbers by value, so 3,
// 3.0 and True == 1 meet; strings with strings). The quadratic weight of a
// pair of labels is the squared difference of their POSITIONS in that sorted
// list, not of their values: with labels {1, 2, 6}, predicting 6 for 2 costs
// 1, as in sklearn.
//
// kappa = 1 - sum(w * confusion) / sum(w * expected), where confusion counts
// (y1, y2) label pairs and expected = outer(column sums, row sums) / n; the
// second sum is numpy's over the flattened matrix (NumpySum). When only one
// label occurs the division is 0 / 0 and the result is NaN (numpy warns;
// sklearn >= 1.7 returns NaN by default too).
//
// InvalidArgumentError, where sklearn raises ValueError (messages follow
// sklearn's): lengths differ; a float column with NaN or infinity ("Input
// contains NaN." / "Input contains infinity ..."); a float value that is not
// a whole number within int64's range (a "continuous" target); an object
// column holding anything but strings (type "unknown", or strings mixed with
// missing values); strings in one column and numbers in the other ("Mix of
// label input types (string and number)"); an empty input.
absl::StatusOr<double> QuadraticWeightedKappa(const Column& y1, const Column& y2);
// The same on two int64 columns' values, without cells.
absl::StatusOr<double> QuadraticWeightedKappa(std::span<const int64_t> y1,
                                              std::span<const int64_t> y2);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CORRELATION_QUADRATIC_WEIGHTED_KAPPA_H_
