#include "pycompat/train_test_split.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "pycompat/numpy_random.h"

namespace mlebench {
namespace {

std::string SizeToString(const std::optional<SplitSize>& size) {
  if (!size.has_value()) return "None";
  if (const double* fraction = std::get_if<double>(&*size)) return FormatPythonFloat(*fraction);
  return absl::StrCat(std::get<int64_t>(*size));
}

bool OutOfRange(const std::optional<SplitSize>& size, int64_t n_samples) {
  if (!size.has_value()) return false;
  if (const double* fraction = std::get_if<double>(&*size)) {
    // NaN passes scikit-learn's range check and then fails in ceil/floor.
    return !(*fraction > 0 && *fraction < 1);
  }
  const int64_t count = std::get<int64_t>(*size);
  return count >= n_samples || count <= 0;
}

struct SplitCounts {
  int64_t n_train;
  int64_t n_test;
};

// scikit-learn's _validate_shuffle_split. Counts are computed in double as
// scikit-learn does (ceil/floor of the rounded double product), so that e.g.
// test_size 0.07 of 100 samples gives n_test = ceil(7.000000000000001) = 8.
absl::StatusOr<SplitCounts> ValidateShuffleSplit(int64_t n_samples,
                                                 std::optional<SplitSize> test_size,
                                                 std::optional<SplitSize> train_size) {
  if (!test_size.has_value() && !train_size.has_value()) test_size = 0.25;
  const auto range_error = [&](std::string_view name, const std::optional<SplitSize>& size) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(name), "=", SizeToString(size), " should be either positive and smaller than the number of samples ",
        n_samples, " or a float in the (0, 1) range"));
  };
  if (OutOfRange(test_size, n_samples)) return range_error("test_size", test_size);
  if (OutOfRange(train_size, n_samples)) return range_error("train_size", train_size);

  const double* test_fraction = test_size ? std::get_if<double>(&*test_size) : nullptr;
  const double* train_fraction = train_size ? std::get_if<double>(&*train_size) : nullptr;
  if (test_fraction != nullptr && train_fraction != nullptr && *train_fraction + *test_fraction > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The sum of test_size and train_size = ", FormatPythonFloat(*train_fraction + *test_fraction),
        ", should be in the (0, 1) range. Reduce test_size and/or train_size."));
  }

  const double n = static_cast<double>(n_samples);
  double n_test = 0;
  double n_train = 0;
  if (test_fraction != nullptr) {
    n_test = std::ceil(*test_fraction * n);
  } else if (test_size.has_value()) {
    n_test = static_cast<double>(std::get<int64_t>(*test_size));
  }
  if (train_fraction != nullptr) {
    n_train = std::floor(*train_fraction * n);
  } else if (train_size.has_value()) {
    n_train = static_cast<double>(std::get<int64_t>(*train_size));
  }
  if (!train_size.has_value()) {
    n_train = n - n_test;
  } else if (!test_size.has_value()) {
    n_test = n - n_train;
  }
  if (n_train + n_test > n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The sum of train_size and test_size = ", static_cast<int64_t>(n_train + n_test),
        ", should be smaller than the number of samples ", n_samples,
        ". Reduce test_size and/or train_size."));
  }
  if (n_train == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "With n_samples=", n_samples, ", test_size=", SizeToString(test_size),
        " and train_size=", SizeToString(train_size),
        ", the resulting train set will be empty. Adjust any of the aforementioned parameters."));
  }
  return SplitCounts{static_cast<int64_t>(n_train), static_cast<int64_t>(n_test)};
}

}  // namespace

absl::StatusOr<TrainTestIndices> TrainTestSplitIndices(int64_t n_samples,
                                                       const TrainTestSplitOptions& options) {
  if (n_samples < 0) {
    return absl::InvalidArgumentError(absl::StrCat("n_samples must be >= 0, got ", n_samples));
  }
  // train_test_split validates the caller's sizes, then hands the resulting
  // counts to ShuffleSplit, which validates them again.
  absl::StatusOr<SplitCounts> counts =
      ValidateShuffleSplit(n_samples, options.test_size, options.train_size);
  if (!counts.ok()) return counts.status();
  counts = ValidateShuffleSplit(n_samples, SplitSize{counts->n_test}, SplitSize{counts->n_train});
  if (!counts.ok()) return counts.status();

  ASSIGN_OR_RETURN(NumpyRandomState rng, NumpyRandomState::Create(options.random_state));
  const std::vector<int64_t> permutation = rng.Permutation(static_cast<size_t>(n_samples));
  TrainTestIndices indices;
  indices.test_indices.assign(permutation.begin(), permutation.begin() + counts->n_test);
  indices.train_indices.assign(permutation.begin() + counts->n_test,
                               permutation.begin() + counts->n_test + counts->n_train);
  return indices;
}

namespace train_test_split_internal {

absl::StatusOr<TrainTestIndices> SplitGroupRows(const std::vector<std::vector<int64_t>>& group_rows,
                                                const TrainTestSplitOptions& options) {
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(group_rows.size()), options));
  const auto flatten = [&](const std::vector<int64_t>& group_indices) {
    std::vector<int64_t> rows;
    for (int64_t g : group_indices) {
      rows.insert(rows.end(), group_rows[g].begin(), group_rows[g].end());
    }
    return rows;
  };
  return TrainTestIndices{flatten(split.train_indices), flatten(split.test_indices)};
}

}  // namespace train_test_split_internal

absl::StatusOr<TrainTestTables> TrainTestSplitTable(const Table& table,
                                                    const TrainTestSplitOptions& options) {
  ASSIGN_OR_RETURN(TrainTestIndices indices,
                   TrainTestSplitIndices(static_cast<int64_t>(table.num_rows()), options));
  ASSIGN_OR_RETURN(Table train, TakeRows(table, indices.train_indices));
  ASSIGN_OR_RETURN(Table test, TakeRows(table, indices.test_indices));
  return TrainTestTables{std::move(train), std::move(test)};
}

}  // namespace mlebench
