#include "pycompat/train_test_split.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TrainTestSplitOptions TestSize(SplitSize size, int64_t seed = 0) {
  TrainTestSplitOptions options;
  options.test_size = size;
  options.random_state = seed;
  return options;
}

TEST(TrainTestSplitIndicesTest, MatchesScikitLearnOnTenRows) {
  // train_test_split(np.arange(10), test_size=0.1, random_state=0)
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(10, TestSize(0.1));
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(split->train_indices, ElementsAre(8, 4, 9, 1, 6, 7, 3, 0, 5));
  EXPECT_THAT(split->test_indices, ElementsAre(2));
}

TEST(TrainTestSplitIndicesTest, IntegerSizesLeaveRowsOut) {
  // train_test_split(np.arange(7), test_size=2, train_size=3, random_state=1)
  TrainTestSplitOptions options = TestSize(int64_t{2}, 1);
  options.train_size = int64_t{3};
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(7, options);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(split->train_indices, ElementsAre(1, 0, 4));
  EXPECT_THAT(split->test_indices, ElementsAre(6, 2));
}

TEST(TrainTestSplitIndicesTest, FractionRoundsUpTheDoubleProduct) {
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(100, TestSize(0.07));
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->test_indices.size(), 8u);  // ceil(7.000000000000001)
  EXPECT_EQ(split->train_indices.size(), 92u);
  split = TrainTestSplitIndices(100, TestSize(0.19));
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->test_indices.size(), 19u);
}

TEST(TrainTestSplitIndicesTest, PartsAreDisjointAndCoverAllRows) {
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(1001, TestSize(0.25, 42));
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->test_indices.size(), 251u);
  std::vector<int64_t> all = split->train_indices;
  all.insert(all.end(), split->test_indices.begin(), split->test_indices.end());
  std::sort(all.begin(), all.end());
  std::vector<int64_t> expected(1001);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(all, expected);
}

TEST(TrainTestSplitIndicesTest, DefaultTestSizeIsAQuarter) {
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(8, TrainTestSplitOptions{});
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->test_indices.size(), 2u);
  EXPECT_EQ(split->train_indices.size(), 6u);
}

TEST(TrainTestSplitIndicesTest, RejectsWhatScikitLearnRejects) {
  EXPECT_THAT(TrainTestSplitIndices(10, TestSize(0.0)).status().message(),
              HasSubstr("test_size=0.0 should be either positive"));
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(1.0)).ok());
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(std::nan(""))).ok());
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(int64_t{10})).ok());
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(int64_t{0})).ok());
  // One row: ceil(0.1) = 1 test row leaves an empty train set.
  EXPECT_THAT(TrainTestSplitIndices(1, TestSize(0.1)).status().message(),
              HasSubstr("the resulting train set will be empty"));
  EXPECT_FALSE(TrainTestSplitIndices(0, TestSize(0.1)).ok());
  TrainTestSplitOptions too_big = TestSize(0.6);
  too_big.train_size = 0.5;
  EXPECT_THAT(TrainTestSplitIndices(10, too_big).status().message(),
              HasSubstr("The sum of test_size and train_size = 1.1"));
  TrainTestSplitOptions too_many = TestSize(int64_t{6});
  too_many.train_size = int64_t{5};
  EXPECT_THAT(TrainTestSplitIndices(10, too_many).status().message(),
              HasSubstr("The sum of train_size and test_size = 11"));
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(0.1, -1)).ok());
  EXPECT_FALSE(TrainTestSplitIndices(10, TestSize(0.1, int64_t{1} << 32)).ok());
  EXPECT_FALSE(TrainTestSplitIndices(-1, TestSize(0.1)).ok());
}

TEST(TrainTestSplitTableTest, TakesTheSplitRowsOfEveryColumn) {
  Table table({Column{"id", Dtype::kInt64, {}}, Column{"name", Dtype::kObject, {}}});
  for (int64_t i = 0; i < 10; ++i) {
    table.mutable_columns()[0].cells.push_back(i * 10);
    table.mutable_columns()[1].cells.push_back(std::string(1, static_cast<char>('a' + i)));
  }
  absl::StatusOr<TrainTestTables> split = TrainTestSplitTable(table, TestSize(0.1));
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(split->test.ColumnNames(), ElementsAre("id", "name"));
  EXPECT_EQ(split->test.columns()[0].cells, (std::vector<Cell>{int64_t{20}}));
  EXPECT_EQ(split->test.columns()[1].cells, (std::vector<Cell>{std::string("c")}));
  ASSERT_EQ(split->train.num_rows(), 9u);
  EXPECT_EQ(split->train.columns()[0].cells[0], Cell(int64_t{80}));
  EXPECT_EQ(split->train.columns()[0].dtype, Dtype::kInt64);
}

TEST(TrainTestSplitTableTest, EmptyTableCannotBeSplit) {
  EXPECT_THAT(TrainTestSplitTable(Table(), TestSize(0.1)).status().message(),
              HasSubstr("train set will be empty"));
}

TEST(TrainTestSplitGroupsTest, StringKeysSplitWholeGroupsInKeyOrder) {
  // Ten molecules "a".."j" (groups 0..9), of 1 to 3 rows, rows of a group
  // scattered through the file. TrainTestSplitIndices(10, test_size=0.1)
  // puts groups 8 4 9 1 6 7 3 0 5 in train and group 2 in test (above).
  const std::vector<std::string> keys = {"d", "a", "j", "c", "d", "b", "i",
                                         "e", "f", "c", "g", "h", "d", "a"};
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitGroups(keys, TestSize(0.1));
  ASSERT_TRUE(split.ok()) << split.status();
  // i: 6; e: 7; j: 2; b: 5; g: 10; h: 11; d: 0 4 12; a: 1 13; f: 8.
  EXPECT_THAT(split->train_indices, ElementsAre(6, 7, 2, 5, 10, 11, 0, 4, 12, 1, 13, 8));
  EXPECT_THAT(split->test_indices, ElementsAre(3, 9));  // c
}

TEST(TrainTestSplitGroupsTest, IntegerKeysSortNumerically) {
  // Seven breaths, sorted -5 3 10 42 100 1000 2**40 (groups 0..6; as text
  // "10" would sort before "3"). TrainTestSplitIndices(7, test_size=2,
  // train_size=3, random_state=1): train groups 1 0 4, test groups 6 2, and
  // groups 3 and 5 on neither side.
  const std::vector<int64_t> keys = {100, 3, -5, int64_t{1} << 40, 3, 10, 42, 1000, -5, 100, 10};
  TrainTestSplitOptions options = TestSize(int64_t{2}, 1);
  options.train_size = int64_t{3};
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitGroups(keys, options);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(split->train_indices, ElementsAre(1, 4, 2, 8, 0, 9));  // 3; -5; 100
  EXPECT_THAT(split->test_indices, ElementsAre(3, 5, 10));           // 2**40; 10
}

TEST(TrainTestSplitGroupsTest, OneRowPerKeyIsARowSplit) {
  std::vector<int64_t> keys(10);
  std::iota(keys.begin(), keys.end(), 0);
  absl::StatusOr<TrainTestIndices> by_group = TrainTestSplitGroups(keys, TestSize(0.25, 42));
  absl::StatusOr<TrainTestIndices> by_row = TrainTestSplitIndices(10, TestSize(0.25, 42));
  ASSERT_TRUE(by_group.ok() && by_row.ok());
  EXPECT_EQ(by_group->train_indices, by_row->train_indices);
  EXPECT_EQ(by_group->test_indices, by_row->test_indices);
}

TEST(TrainTestSplitGroupsTest, TooFewGroupsFailAsTrainTestSplitIndices) {
  // One group: ceil(0.1 * 1) = 1 test group leaves train empty, however many
  // rows the group has.
  const std::vector<std::string> one_group = {"x", "x", "x"};
  absl::Status status = TrainTestSplitGroups(one_group, TestSize(0.1)).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status, TrainTestSplitIndices(1, TestSize(0.1)).status());
  EXPECT_THAT(status.message(), HasSubstr("With n_samples=1, test_size=0.1"));
  EXPECT_THAT(status.message(), HasSubstr("the resulting train set will be empty"));
  // No rows, so no groups.
  EXPECT_EQ(TrainTestSplitGroups(std::vector<int64_t>{}, TestSize(0.1)).status(),
            TrainTestSplitIndices(0, TestSize(0.1)).status());
  // An absolute test size counts groups, not rows.
  const std::vector<int64_t> two_groups = {7, 7, 7, 9, 9};
  EXPECT_THAT(TrainTestSplitGroups(two_groups, TestSize(int64_t{2})).status().message(),
              HasSubstr("test_size=2 should be either positive and smaller than the number of "
                        "samples 2"));
  EXPECT_TRUE(TrainTestSplitGroups(two_groups, TestSize(int64_t{1})).ok());
  // Seeds numpy rejects.
  EXPECT_FALSE(TrainTestSplitGroups(two_groups, TestSize(0.5, -1)).ok());
}

// The code the preparers of champs-scalar-coupling,
// osic-pulmonary-fibrosis-progression and ventilator-pressure-prediction each
// held before TrainTestSplitGroups, as they wrote it.
template <typename Key>
absl::StatusOr<TrainTestIndices> InlineGroupSplit(const std::vector<Key>& keys,
                                                  const TrainTestSplitOptions& options) {
  std::map<Key, std::vector<int64_t>> groups;
  for (size_t row = 0; row < keys.size(); ++row) {
    groups[(keys)[row]].push_back(static_cast<int64_t>(row));
  }
  std::vector<const std::vector<int64_t>*> group_rows;
  for (const auto& [name, rows] : groups) group_rows.push_back(&rows);
  absl::StatusOr<TrainTestIndices> split =
      TrainTestSplitIndices(static_cast<int64_t>(group_rows.size()), options);
  if (!split.ok()) return split.status();
  const auto flatten = [&](const std::vector<int64_t>& group_indices) {
    std::vector<int64_t> rows;
    for (int64_t g : group_indices) {
      rows.insert(rows.end(), group_rows[g]->begin(), group_rows[g]->end());
    }
    return rows;
  };
  return TrainTestIndices{flatten(split->train_indices), flatten(split->test_indices)};
}

template <typename Key>
void ExpectSameAsInline(const std::vector<Key>& keys, const TrainTestSplitOptions& options) {
  absl::StatusOr<TrainTestIndices> helper = TrainTestSplitGroups(keys, options);
  absl::StatusOr<TrainTestIndices> inline_split = InlineGroupSplit(keys, options);
  ASSERT_EQ(helper.status(), inline_split.status());
  if (!helper.ok()) return;
  EXPECT_EQ(helper->train_indices, inline_split->train_indices);
  EXPECT_EQ(helper->test_indices, inline_split->test_indices);
}

TEST(TrainTestSplitGroupsTest, SameAsThePreparersInlineCode) {
  std::mt19937_64 engine(7);
  for (int trial = 0; trial < 60; ++trial) {
    const size_t rows = engine() % 300;
    const uint64_t distinct = 1 + engine() % 40;
    std::vector<int64_t> int_keys;
    std::vector<std::string> text_keys;
    for (size_t row = 0; row < rows; ++row) {
      const int64_t key = static_cast<int64_t>(engine() % distinct) - 20;
      int_keys.push_back(key * 1000003);
      text_keys.push_back(absl::StrCat("ID_", key));  // "ID_-3" < "ID_10" < "ID_9"
    }
    const TrainTestSplitOptions options = trial % 3 == 0 ? TestSize(int64_t{1} + trial % 4, trial)
                                                         : TestSize(0.1 * (1 + trial % 5), trial);
    SCOPED_TRACE(absl::StrCat("trial ", trial, ", ", rows, " rows"));
    ExpectSameAsInline(int_keys, options);
    ExpectSameAsInline(text_keys, options);
  }
}

}  // namespace
}  // namespace mlebench
