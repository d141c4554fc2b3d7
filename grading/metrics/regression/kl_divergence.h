#ifndef MLEBENCH_GRADING_METRICS_REGRESSION_KL_DIVERGENCE_H_
#define MLEBENCH_GRADING_METRICS_REGRESSION_KL_DIVERGENCE_H_

// Kaggle's "kullback-leibler-divergence" metric as upstream vendors it
// (hms-harmful-brain-activity-classification/kullback_leibler_divergence.py
// with kaggle_metric_utilities.verify_valid_probabilities), for the
// micro-averaged, unweighted case that upstream's graders use.

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// verify_valid_probabilities(frame, frame_name), in its order:
//  1. `frame.values` has a numeric dtype: every column int64/float64, or
//     every column bool (bool mixed with numbers is an object array);
//  2. the smallest value (NaN skipped) is not below 0;
//  3. the largest value (NaN skipped) is not above 1;
//  4. every row sum (NaN skipped) passes np.allclose(sum, 1):
//     |sum - 1| <= 1e-8 + 1e-5.
// InvalidArgumentError with upstream's message otherwise. `frame` holds only
// the probability columns (no id column).
absl::Status VerifyValidProbabilities(const Table& frame, std::string_view frame_name);

// score(solution, submission, ...) after the id column has been removed from
// both, rows aligned by position: verifies that every solution column is in
// the submission ("Missing submission column ..."), then both frames with
// VerifyValidProbabilities (the submission with ALL its columns, extra ones
// included), then per solution column: p = clip(submission, epsilon,
// 1 - epsilon) (NaN stays NaN), loss = y * log(y / p) where y != 0, else 0.
// As upstream's np.clip on a pandas int64 column casts back to int64, int64
// submission columns are not clipped (their 0s give infinite losses).
// The result is numpy's mean over rows of each row's loss sum, where the row
// sum skips NaN (pandas' sum(axis=1)) and adds the columns left to right.
// Errors are InvalidArgumentError with upstream's messages; the caller
// decides whose fault they are.
absl::StatusOr<double> KlDivergenceScore(const Table& solution, const Table& submission,
                                         double epsilon = 1e-15);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_REGRESSION_KL_DIVERGENCE_H_
