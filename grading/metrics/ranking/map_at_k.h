#ifndef MLEBENCH_GRADING_METRICS_RANKING_MAP_AT_K_H_
#define MLEBENCH_GRADING_METRICS_RANKING_MAP_AT_K_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "base/table.h"
#include "base/typed_table.h"

namespace mlebench {

// Upstream's mlebench.metrics mean average precision at k (after Ben
// Hamner's ml_metrics), used by the graders whose submissions rank up to k
// labels per row as space-separated text.

// One row's AP@k: `predicted` is cut to its first k entries; each entry that
// is in `actual` and does not repeat an earlier entry of the cut list is a
// hit, adding (hits so far) / (its 1-based position); the sum is divided by
// min(|actual|, k). Repeated predictions still take up positions. An empty
// `actual` scores 0.0. `k` must be positive (the caller's contract).
double AveragePrecisionAtK(const std::set<std::string>& actual,
                           absl::Span<const std::string> predicted, int k);

// `mean_average_precision_at_k(actual, predicted, k)`: numpy's mean
// (NumpyMean, bit for bit) of AveragePrecisionAtK over the rows paired as
// Python's zip pairs them (the shorter list decides; no rows give NaN, as
// np.mean([]) does). InvalidArgumentError for k < 1 (upstream would slice
// oddly or divide by zero).
absl::StatusOr<double> MeanAveragePrecisionAtK(const std::vector<std::set<std::string>>& actual,
                                               const std::vector<std::vector<std::string>>& predicted,
                                               int k);

// Python's `text.split(" ")`: split on every single space, keeping empty
// pieces ("a  b" -> ["a", "", "b"], "" -> [""]).
std::vector<std::string> SplitOnSpace(std::string_view text);

// What upstream's MAP@k graders do to a label column after aligning rows:
// `column.astype(str).str.split(" ")`, each cell as pandas' str() spells it
// (NaN -> "nan", 1.0 -> "1.0", 7 -> "7"). LabelSets is the same with
// `.apply(set)`, for the answers.
std::vector<std::vector<std::string>> LabelLists(const Column& column);
std::vector<std::set<std::string>> LabelSets(const Column& column);

// Upstream's MAP@k graders' id check, `set(sub[id]) == set(ans[id])`, with
// each id as its text (the graders read ids as strings; a missing id is
// "nan").
bool SameIdSets(const Column& submission_ids, const Column& answer_ids);
bool SameIdSets(const TypedColumn& submission_ids, const TypedColumn& answer_ids);

// The rest of those graders once ids and lengths are checked: both tables
// sorted by id, answers' labels as LabelSets, the submission's as
// LabelLists, then MeanAveragePrecisionAtK. Requires SameIdSets and equal
// lengths (else InvalidArgumentError); answers with a repeated id are
// malformed (FailedPreconditionError: pandas' unstable sort would pair them
// arbitrarily).
absl::StatusOr<double> MapAtKAlignedOnIds(const Column& submission_ids,
                                          const Column& submission_labels,
                                          const Column& answer_ids, const Column& answer_labels,
                                          int k);
absl::StatusOr<double> MapAtKAlignedOnIds(const TypedColumn& submission_ids,
                                          const TypedColumn& submission_labels,
                                          const TypedColumn& answer_ids,
                                          const TypedColumn& answer_labels, int k);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_RANKING_MAP_AT_K_H_
