#include "competitions/common/group_split.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {

absl::StatusOr<GroupSplit> SplitRowsByGroup(const std::vector<std::string>& groups,
                                            const std::vector<size_t>& row_group,
                                            const TrainTestSplitOptions& options) {
  for (size_t row = 0; row < row_group.size(); ++row) {
    if (row_group[row] >= groups.size()) {
      return absl::OutOfRangeError(
          absl::StrCat("row ", row, " has group ", row_group[row], " of ", groups.size()));
    }
  }
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(groups.size()), options));
  GroupSplit result;
  std::vector<bool> in_test(groups.size(), false);
  for (int64_t index : split.test_indices) in_test[index] = true;
  for (int64_t index : split.train_indices) result.train_groups.push_back(groups[index]);
  for (int64_t index : split.test_indices) result.test_groups.push_back(groups[index]);
  for (size_t row = 0; row < row_group.size(); ++row) {
    (in_test[row_group[row]] ? result.test_rows : result.train_rows)
        .push_back(static_cast<int64_t>(row));
  }
  return result;
}

}  // namespace mlebench
