#ifndef MLEBENCH_BASE_TABLE_OPS_H_
#define MLEBENCH_BASE_TABLE_OPS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench {

// The few pandas DataFrame operations that preparers need. Each keeps the
// dtypes pandas keeps. A `table` whose columns differ in length is malformed:
// InvalidArgumentError.

// `df.iloc[rows]`: the rows at positions `rows`, in that order (repeats
// allowed). A position outside [0, num_rows) is OutOfRangeError.
absl::StatusOr<Table> TakeRows(const Table& table, std::span<const int64_t> rows);

// `df[mask]` done in place, for tables too large to copy: keeps the rows at
// positions `rows`, which must be strictly increasing (else
// InvalidArgumentError; out of range is OutOfRangeError), moving their cells
// forward. The table's memory is not released (its columns keep their
// capacity); callers drop the table when done.
absl::Status KeepRowsInPlace(Table& table, std::span<const int64_t> rows);

// `df.drop(columns=names)`. A name that is not a column is NotFoundError
// (pandas' KeyError).
absl::StatusOr<Table> DropColumns(const Table& table, const std::vector<std::string>& names);

// `df[names]`: those columns, in the order given. A name that is not a
// column is NotFoundError.
absl::StatusOr<Table> SelectColumns(const Table& table, const std::vector<std::string>& names);

// `df[name] = value`: every row of column `name` set to `value`, replacing
// the column in place or appending it. The dtype follows the value as in
// pandas: bool -> bool, int64 -> int64, double -> float64, string -> object,
// missing -> float64 NaN. A table without columns has no row count here:
// InvalidArgumentError.
absl::Status SetConstantColumn(Table& table, std::string_view name, const Cell& value);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_TABLE_OPS_H_
