#ifndef MLEBENCH_GRADING_METRICS_CORRELATION_KENDALL_TAU_H_
#define MLEBENCH_GRADING_METRICS_CORRELATION_KENDALL_TAU_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Upstream's AI4Code `kendall_tau(ground_truth, predictions)` (Kaggle's
// competition metric): for each pair of item lists, `ranks` is the position
// in `gt` of each item of `pred` (the first position, as `list.index`
// finds it), and the score is
//
//   1 - 4 * sum(inversions(ranks)) / sum(len(gt) * (len(gt) - 1))
//
// where inversions counts pairs i < j with ranks[i] > ranks[j] (equal ranks,
// from repeated items, are not inverted: upstream's bisect_right). The
// division is Python's int / int, correctly rounded. O(n log n) per list,
// where upstream's insertion into a sorted list is O(n^2).
//
// InvalidArgumentError: the two outer lists differ in length (upstream's zip
// would silently drop the extra lists); an item of `pred` is not in its `gt`
// (Python's ValueError "'x' is not in list"); every `gt` has fewer than two
// items (ZeroDivisionError, "division by zero").
absl::StatusOr<double> KendallTau(const std::vector<std::vector<std::string>>& ground_truth,
                                  const std::vector<std::vector<std::string>>& predictions);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CORRELATION_KENDALL_TAU_H_
