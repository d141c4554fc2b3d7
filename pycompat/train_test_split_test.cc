#include "pycompat/train_test_split.h"

#include <algorithm>
#include <numeric>

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

}  // namespace
}  // namespace mlebench
