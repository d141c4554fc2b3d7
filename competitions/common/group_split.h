#ifndef MLEBENCH_COMPETITIONS_COMMON_GROUP_SPLIT_H_
#define MLEBENCH_COMPETITIONS_COMMON_GROUP_SPLIT_H_

// Upstream's split of a table's rows by a group column (patients, images):
//   groups = df[col].unique()
//   train_groups, test_groups = train_test_split(groups, <options>)
//   train = df[df[col].isin(train_groups)]; test = df[df[col].isin(test_groups)]
// Unlike pycompat's TrainTestSplitGroups (sorted groups, rows group by
// group), the groups keep their order of first appearance and each side's
// rows their table order.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pycompat/train_test_split.h"

namespace mlebench {

struct GroupSplit {
  std::vector<std::string> train_groups;  // in the order the split picks them
  std::vector<std::string> test_groups;
  std::vector<int64_t> train_rows;  // ascending
  std::vector<int64_t> test_rows;
};

// `groups` are the distinct groups in order of first appearance and
// `row_group[r]` the position in `groups` of row r's group. The groups are
// split by TrainTestSplitIndices(groups.size(), options) (its errors as they
// are); each row goes to its group's side. A position outside `groups` is
// OutOfRangeError naming the row.
absl::StatusOr<GroupSplit> SplitRowsByGroup(const std::vector<std::string>& groups,
                                            const std::vector<size_t>& row_group,
                                            const TrainTestSplitOptions& options);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_COMMON_GROUP_SPLIT_H_
