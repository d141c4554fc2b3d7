#ifndef MLEBENCH_GRADING_METRICS_PROBABILITY_ROWS_H_
#define MLEBENCH_GRADING_METRICS_PROBABILITY_ROWS_H_

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Upstream's usual pair of checks on a submission's class-probability
// columns (several multi-class log-loss graders), in upstream's order:
//  1. every row sums to one: pandas' `DataFrame.sum(axis=1)` (NaN skipped,
//     the columns added in the given order) must pass
//     `np.isclose(sum, 1, atol=1e-6)` with its default rtol=1e-5, i.e.
//     |sum - 1| <= 1e-6 + 1e-5; an infinite sum never does. Text in a column
//     makes pandas' sum raise;
//  2. every value lies in [0, 1] (NaN fails).
// A failure is InvalidSubmission: `sum_message` / `range_message` (upstream's
// wording) followed by where it happened.
absl::Status CheckProbabilityRows(const std::vector<const Column*>& columns,
                                  std::string_view sum_message, std::string_view range_message);
absl::Status CheckProbabilityRows(const std::vector<const TypedColumn*>& columns,
                                  std::string_view sum_message, std::string_view range_message);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_PROBABILITY_ROWS_H_
