#ifndef MLEBENCH_PYCOMPAT_TRAIN_TEST_SPLIT_H_
#define MLEBENCH_PYCOMPAT_TRAIN_TEST_SPLIT_H_

#include <cstdint>
#include <optional>
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
