#ifndef MLEBENCH_GRADING_METRICS_TEXT_JACCARD_H_
#define MLEBENCH_GRADING_METRICS_TEXT_JACCARD_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// Word-level Jaccard similarity as upstream computes it
// (tweet-sentiment-extraction's `jaccard`): with A and B the sets of words of
// `a.lower().split()` and `b.lower().split()` (Python's Unicode lower-casing
// and whitespace, see python_str.h), |A & B| / (|A| + |B| - |A & B|).
// Errors (InvalidArgumentError): both texts have no words (Python's
// ZeroDivisionError, "float division by zero"); a text is not valid UTF-8.
absl::StatusOr<double> WordJaccard(std::string_view a, std::string_view b);

// `float(np.mean([jaccard(p, t) for p, t in zip(predictions, answers)]))`:
// numpy's pairwise mean (NaN when there are no pairs). The first failing
// pair's error, with its index. The lengths must be equal
// (InvalidArgumentError otherwise).
absl::StatusOr<double> MeanWordJaccard(absl::Span<const std::string_view> predictions,
                                       absl::Span<const std::string_view> answers);
// The same over the pairs order[0], order[1], ... (indices of pairs, each
// below their number): the mean sums in that order and an error names the
// first failing pair's position in it. The pairs are scored in their own
// order (texts read where they lie, not in `order`'s).
absl::StatusOr<double> MeanWordJaccard(absl::Span<const std::string_view> predictions,
                                       absl::Span<const std::string_view> answers,
                                       absl::Span<const size_t> order);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_TEXT_JACCARD_H_
