#include "competitions/common/group_split.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(SplitRowsByGroupTest, SplitsTheGroupsAsTrainTestSplitAndRowsFollowTheirGroup) {
  const std::vector<std::string> groups = {"p7", "p2", "p9", "p4", "p1", "p8", "p3", "p5"};
  const std::vector<size_t> row_group = {0, 1, 0, 2, 3, 4, 5, 6, 7, 7, 1, 3};
  TrainTestSplitOptions options;
  options.test_size = 0.25;
  options.random_state = 42;
  const absl::StatusOr<GroupSplit> split = SplitRowsByGroup(groups, row_group, options);
  ASSERT_TRUE(split.ok()) << split.status();

  const absl::StatusOr<TrainTestIndices> picks = TrainTestSplitIndices(8, options);
  ASSERT_TRUE(picks.ok());
  std::vector<std::string> train_groups, test_groups;
  for (int64_t i : picks->train_indices) train_groups.push_back(groups[i]);
  for (int64_t i : picks->test_indices) test_groups.push_back(groups[i]);
  EXPECT_EQ(split->train_groups, train_groups);
  EXPECT_EQ(split->test_groups, test_groups);

  // Every row once, ascending on each side, on its group's side.
  EXPECT_EQ(split->train_rows.size() + split->test_rows.size(), row_group.size());
  for (const auto* rows : {&split->train_rows, &split->test_rows}) {
    for (size_t i = 1; i < rows->size(); ++i) EXPECT_LT((*rows)[i - 1], (*rows)[i]);
  }
  for (int64_t row : split->test_rows) {
    const std::string& group = groups[row_group[row]];
    EXPECT_NE(std::find(test_groups.begin(), test_groups.end(), group), test_groups.end());
  }
  for (int64_t row : split->train_rows) {
    const std::string& group = groups[row_group[row]];
    EXPECT_NE(std::find(train_groups.begin(), train_groups.end(), group), train_groups.end());
  }
}

TEST(SplitRowsByGroupTest, AGroupOutsideTheListIsAnError) {
  const absl::StatusOr<GroupSplit> split =
      SplitRowsByGroup({"a", "b"}, {0, 2}, TrainTestSplitOptions{});
  EXPECT_EQ(split.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(split.status().message(), "row 1 has group 2 of 2");
}

}  // namespace
}  // namespace mlebench
