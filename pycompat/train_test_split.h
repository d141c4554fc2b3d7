#ifndef MLEBENCH_PYCOMPAT_TRAIN_TEST_SPLIT_H_
#define MLEBENCH_PYCOMPAT_TRAIN_TEST_SPLIT_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// A split size as scikit-learn takes it: a fraction of the samples (double,
// in (0, 1)) or an absolute number of samples (int64_t, in [1, n_samples)).
using SplitSize = std::variant<double, int64_t>;

struct TrainTestSplitOptions {
  // Both unset means test_size = 0.25, as scikit-learn's default.
  std::optional<SplitSize> test_size;
  std::optional<SplitSize> train_size;
  // The integer `random_state`: seeds numpy's RandomState, so [0, 2**32 - 1].
  int64_t random_state = 0;
};

// Row positions of the two parts, in the order upstream writes them.
struct TrainTestIndices {
  std::vector<int64_t> train_indices;
  std::vector<int64_t> test_indices;
};

// The row positions that scikit-learn's
//   train_test_split(<n_samples rows>, test_size=..., train_size=...,
//                    random_state=<int>, shuffle=True)
// puts in its train and test outputs. Sizes follow _validate_shuffle_split
// (a fractional test size rounds up: n_test = ceil(test_size * n_samples),
// a fractional train size rounds down; an unset one takes the rest); the rows
// come from RandomState(random_state).permutation(n_samples): test is its
// first n_test entries, train the n_train after those. Sizes scikit-learn
// rejects (out of range, summing past n_samples, an empty train set) and
// seeds numpy rejects are InvalidArgumentError with scikit-learn's reason.
absl::StatusOr<TrainTestIndices> TrainTestSplitIndices(int64_t n_samples,
                                                       const TrainTestSplitOptions& options);

namespace train_test_split_internal {
// TrainTestSplitGroups once the rows are grouped: `group_rows[g]` holds the
// rows of group g, groups in sorted key order.
absl::StatusOr<TrainTestIndices> SplitGroupRows(const std::vector<std::vector<int64_t>>& group_rows,
                                                const TrainTestSplitOptions& options);
}  // namespace train_test_split_internal

// Upstream's split of a table by a key column (whole groups on one side):
//   groups = sorted(df[key].unique())
//   train_groups, test_groups = train_test_split(groups, <options>)
// then each side's rows group by group. `keys[r]` is the key of row r. The
// groups are the distinct keys in ascending order (std::map's, i.e. `<`:
// numeric for integers, bytewise for UTF-8 strings, which is code point
// order), numbered 0, 1, ...; TrainTestSplitIndices(<number of groups>,
// options) picks them; each side lists the rows of its groups in the order
// the split returns the groups, a group's rows in ascending row order (as
// `df.groupby(key)` gives them), so rows of one group need not be adjacent in
// `keys`. Errors are TrainTestSplitIndices' for that number of groups (e.g.
// no rows, or a single group with a fractional test_size: an empty train
// set).
template <typename Key>
absl::StatusOr<TrainTestIndices> TrainTestSplitGroups(const std::vector<Key>& keys,
                                                      const TrainTestSplitOptions& options) {
  std::map<Key, std::vector<int64_t>> groups;
  for (size_t row = 0; row < keys.size(); ++row) {
    groups[keys[row]].push_back(static_cast<int64_t>(row));
  }
  std::vector<std::vector<int64_t>> group_rows;
  group_rows.reserve(groups.size());
  for (auto& [key, rows] : groups) group_rows.push_back(std::move(rows));
  return train_test_split_internal::SplitGroupRows(group_rows, options);
}

// `train_test_split(table, ...)` on a DataFrame: the rows of `table` at
// TrainTestSplitIndices(table.num_rows(), options), in that order, with every
// column and dtype kept.
struct TrainTestTables {
  Table train;
  Table test;
};
absl::StatusOr<TrainTestTables> TrainTestSplitTable(const Table& table,
                                                    const TrainTestSplitOptions& options);

}  // namespace mlebench

#endif  // MLEBENCH_PYCOMPAT_TRAIN_TEST_SPLIT_H_
