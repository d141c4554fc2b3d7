#ifndef MLEBENCH_GRADING_METRICS_CORRELATION_SPEARMAN_CORRELATION_H_
#define MLEBENCH_GRADING_METRICS_CORRELATION_SPEARMAN_CORRELATION_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// `scipy.stats.spearmanr(x, y).correlation` for two 1-D inputs, with its
// defaults (nan_policy="propagate"), as scipy 1.14 (upstream's pinned
// 1.14.1) computes it:
//  1. lengths differ: InvalidArgumentError (numpy's column_stack raises);
//  2. fewer than two values: NaN;
//  3. an input whose every value == its first (a NaN never equals itself,
//     so this is not "all NaN"): NaN (scipy warns ConstantInputWarning);
//  4. a NaN anywhere: NaN (scipy tests `isnan(np.max(stacked x and y))`;
//     infinities are ranked, whatever their signs. scipy 1.10 tested
//     `isnan(np.sum(...))`, which also made +inf with -inf, or finite values
//     whose sum overflows both ways, NaN);
//  5. otherwise np.corrcoef of the two inputs' average ranks (ties share the
//     mean of their 1-based positions; infinities rank as the extremes).
// Average ranks are multiples of 1/2 whose mean is exactly (n + 1) / 2, so
// numpy's centred ranks and the sums of their products are exact, in any
// summation order, up to a few hundred thousand values; the result is then
// numpy's ((Sxy / (n-1)) / sy) / sx bit for bit, clipped to [-1, 1].
absl::StatusOr<double> SpearmanCorrelation(absl::Span<const double> x, absl::Span<const double> y);

// The same on pandas columns (`spearmanr(series_x, series_y)`), whose values
// numpy stacks into one array first: a float64 column makes int64 and bool
// values float64 (large integers can then tie); two int64/bool columns rank
// exactly. An object column (text) makes the stacked array an object array:
// its strings rank in Python's order (by code point, so predictions of text
// get a score, as in scipy), a missing value is NaN (step 4), and a column
// mixing text with numbers is InvalidArgumentError (Python's `<` raises
// TypeError while sorting).
absl::StatusOr<double> SpearmanCorrelation(const Column& x, const Column& y);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CORRELATION_SPEARMAN_CORRELATION_H_
