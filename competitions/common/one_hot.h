#ifndef MLEBENCH_COMPETITIONS_COMMON_ONE_HOT_H_
#define MLEBENCH_COMPETITIONS_COMMON_ONE_HOT_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// Upstream's `df_to_one_hot(df, id_column, target_column, classes)`
// (mlebench/competitions/utils.py): a table with `id_column` (copied from
// `df`, same dtype and row order) followed by one int64 column per class, in
// `classes` order, holding 1 in the class named by the row's `target_column`
// value and 0 elsewhere.
//
// Where upstream would silently grow the table (pandas' `.loc` enlargement
// adds a column for a label that is not a class, turning the class columns'
// holes into float NaN), this is an InvalidArgumentError naming the row:
// a target value that is missing, not text, or not in `classes`. Duplicate
// classes, or a class named like the id column, are InvalidArgumentError;
// absent columns are NotFoundError.
absl::StatusOr<Table> DfToOneHot(const Table& df, std::string_view id_column,
                                 std::string_view target_column,
                                 const std::vector<std::string>& classes);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_COMMON_ONE_HOT_H_
