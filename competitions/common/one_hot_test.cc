#include "competitions/common/one_hot.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Table Labels(std::vector<Cell> authors) {
  std::vector<Cell> ids;
  for (size_t i = 0; i < authors.size(); ++i) ids.push_back(std::string("id") + std::to_string(i));
  return Table({Column{"id", Dtype::kObject, std::move(ids)},
                Column{"author", Dtype::kObject, std::move(authors)}});
}

const std::vector<std::string> kClasses = {"EAP", "HPL", "MWS"};

TEST(DfToOneHotTest, OneColumnPerClass) {
  absl::StatusOr<Table> one_hot =
      DfToOneHot(Labels({std::string("MWS"), std::string("EAP"), std::string("MWS")}), "id",
                 "author", kClasses);
  ASSERT_TRUE(one_hot.ok()) << one_hot.status();
  EXPECT_THAT(one_hot->ColumnNames(), ElementsAre("id", "EAP", "HPL", "MWS"));
  EXPECT_EQ(one_hot->columns()[0].dtype, Dtype::kObject);
  EXPECT_EQ(one_hot->columns()[0].cells,
            (std::vector<Cell>{std::string("id0"), std::string("id1"), std::string("id2")}));
  for (size_t c = 1; c <= 3; ++c) EXPECT_EQ(one_hot->columns()[c].dtype, Dtype::kInt64);
  EXPECT_EQ(one_hot->columns()[1].cells, (std::vector<Cell>{int64_t{0}, int64_t{1}, int64_t{0}}));
  EXPECT_EQ(one_hot->columns()[2].cells, (std::vector<Cell>{int64_t{0}, int64_t{0}, int64_t{0}}));
  EXPECT_EQ(one_hot->columns()[3].cells, (std::vector<Cell>{int64_t{1}, int64_t{0}, int64_t{1}}));
}

TEST(DfToOneHotTest, KeepsTheIdDtype) {
  Table df({Column{"id", Dtype::kInt64, {int64_t{5}, int64_t{3}}},
            Column{"y", Dtype::kObject, {std::string("b"), std::string("a")}}});
  absl::StatusOr<Table> one_hot = DfToOneHot(df, "id", "y", {"a", "b"});
  ASSERT_TRUE(one_hot.ok());
  EXPECT_EQ(one_hot->columns()[0].dtype, Dtype::kInt64);
  EXPECT_EQ(one_hot->columns()[0].cells, (std::vector<Cell>{int64_t{5}, int64_t{3}}));
}

TEST(DfToOneHotTest, EmptyInput) {
  absl::StatusOr<Table> one_hot = DfToOneHot(Labels({}), "id", "author", kClasses);
  ASSERT_TRUE(one_hot.ok());
  EXPECT_EQ(one_hot->num_rows(), 0u);
  EXPECT_EQ(one_hot->num_columns(), 4u);
}

TEST(DfToOneHotTest, RejectsLabelsOutsideTheClasses) {
  EXPECT_THAT(DfToOneHot(Labels({std::string("EAP"), std::string("Poe")}), "id", "author", kClasses)
                  .status()
                  .message(),
              HasSubstr("row 1: column 'author' holds 'Poe'"));
  EXPECT_FALSE(DfToOneHot(Labels({std::monostate{}}), "id", "author", kClasses).ok());
  EXPECT_FALSE(DfToOneHot(Labels({int64_t{1}}), "id", "author", kClasses).ok());
}

TEST(DfToOneHotTest, RejectsBadColumnsAndClasses) {
  EXPECT_EQ(DfToOneHot(Labels({}), "nope", "author", kClasses).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(DfToOneHot(Labels({}), "id", "nope", kClasses).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(DfToOneHot(Labels({}), "id", "author", {"EAP", "EAP"}).ok());
  EXPECT_FALSE(DfToOneHot(Labels({}), "id", "author", {"id"}).ok());
}

}  // namespace
}  // namespace mlebench
