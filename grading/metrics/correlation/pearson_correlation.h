#ifndef MLEBENCH_GRADING_METRICS_CORRELATION_PEARSON_CORRELATION_H_
#define MLEBENCH_GRADING_METRICS_CORRELATION_PEARSON_CORRELATION_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"

namespace mlebench {

// `scipy.stats.pearsonr(x, y)[0]` (the correlation statistic) for 1-D
// inputs, as scipy 1.14.1 computes it (the version upstream's environment
// pins; older releases differ on NaN and infinity, see below).
//
// InvalidArgumentError, as scipy raises ValueError: lengths differ ("`x` and
// `y` must have the same length along `axis`."), or fewer than two values
// ("`x` and `y` must have length at least 2.").
//
// Two values: sign(x1 - x0) * sign(y1 - y0) (np.sign: 0 for equal values,
// NaN for a NaN), with no constant check, so two equal values give 0.
//
// Not errors: a constant input of three or more values (every value == the
// first) gives NaN (scipy warns ConstantInputWarning); NaN or infinite values
// give NaN (scipy <= 1.13 raised ValueError from scipy.linalg.norm's
// finiteness check instead).
//
// The float path is scipy 1.14.1's, step for step with numpy's arithmetic:
// centre each input on its mean (NumpyMean), xm; normxm = max|xm| times the
// Euclidean norm of xm / max|xm| (sqrt of NumpySum of squares, as
// np.linalg.norm along an axis); sum `xm/normxm * ym/normym` left to right
// per element (NumpySum); clip to [-1, 1]. (Checked bit for bit against the
// real pearsonr in correlation_kappa_reference_diff_test.)
absl::StatusOr<double> PearsonCorrelation(absl::Span<const double> x, absl::Span<const double> y);

// The same on pandas columns (`series.to_numpy()` handed to pearsonr).
// int64 and bool columns are converted to float64, as scipy promotes them. An
// object column is InvalidArgumentError: scipy >= 1.14 validates inputs with
// its array-API layer, which raises TypeError on object arrays (older scipy
// failed on any string too, but returned NaN for a constant one).
absl::StatusOr<double> PearsonCorrelation(const Column& x, const Column& y);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_CORRELATION_PEARSON_CORRELATION_H_
