#include "grading/metrics/sorted_id_pairing.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Column Ids(std::vector<Cell> cells) {
  Column c;
  c.name = "id";
  c.dtype = Dtype::kObject;
  c.cells = std::move(cells);
  return c;
}

Cell S(const char* s) { return Cell(std::string(s)); }

TEST(SortedIdPairingTest, PairsRowsOfTheSameIdInAnyOrder) {
  const Column submission = Ids({S("c"), S("a"), S("b")});
  const Column answers = Ids({S("b"), S("c"), S("a")});
  absl::StatusOr<SortedIdOrders> orders = SortBothById(submission, answers);
  ASSERT_TRUE(orders.ok()) << orders.status();
  EXPECT_THAT(orders->submission, ElementsAre(1, 2, 0));
  EXPECT_THAT(orders->answers, ElementsAre(2, 0, 1));
  EXPECT_TRUE(CheckSortedIdsEqual(submission, answers, *orders, "same ids").ok());
}

TEST(SortedIdPairingTest, TheSameIdsInTheSameRowsSortOnce) {
  const std::vector<std::string_view> ids = {"c", "a", "b"};
  const TypedColumn submission = TypedColumn::Text("id", ids);
  const TypedColumn answers = TypedColumn::Text("id", ids);
  absl::StatusOr<SortedIdOrders> orders = SortBothById(submission, answers);
  ASSERT_TRUE(orders.ok()) << orders.status();
  EXPECT_TRUE(orders->same_ids);
  EXPECT_THAT(orders->submission, ElementsAre(1, 2, 0));
  EXPECT_THAT(orders->answers, ElementsAre(1, 2, 0));
  EXPECT_TRUE(CheckSortedIdsEqual(submission, answers, *orders, "same ids").ok());
  // A missing id never equals itself: sorted twice and compared.
  const std::vector<std::string_view> missing = {"c", std::string_view(), "b"};
  const TypedColumn with_missing = TypedColumn::Text("id", missing);
  orders = SortBothById(with_missing, with_missing);
  ASSERT_TRUE(orders.ok()) << orders.status();
  EXPECT_FALSE(orders->same_ids);
  EXPECT_FALSE(CheckSortedIdsEqual(with_missing, with_missing, *orders, "same ids").ok());
}

TEST(SortedIdPairingTest, RepeatedIdsPairWhenBothSidesRepeatThem) {
  const Column submission = Ids({S("a"), S("b"), S("a")});
  const Column answers = Ids({S("a"), S("a"), S("b")});
  absl::StatusOr<SortedIdOrders> orders = SortBothById(submission, answers);
  ASSERT_TRUE(orders.ok());
  EXPECT_TRUE(CheckSortedIdsEqual(submission, answers, *orders, "same ids").ok());
}

TEST(SortedIdPairingTest, AMismatchNamesTheSortedRowAndBothIds) {
  const Column submission = Ids({S("a"), S("a"), S("c")});
  const Column answers = Ids({S("c"), S("b"), S("a")});
  absl::StatusOr<SortedIdOrders> orders = SortBothById(submission, answers);
  ASSERT_TRUE(orders.ok());
  absl::Status s = CheckSortedIdsEqual(submission, answers, *orders, "Ids must match");
  EXPECT_TRUE(IsInvalidSubmission(s));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("Ids must match (they differ at sorted row 1: submission 'a', "
                        "answers 'b')"));
}

TEST(SortedIdPairingTest, NumbersNeverEqualTextAndNaNNeverEqualsItself) {
  // numpy's `!=` on object arrays: 1 != "1", and nan != nan.
  const Column numbers = Ids({Cell(int64_t{1})});
  const Column text = Ids({S("1")});
  absl::StatusOr<SortedIdOrders> orders = SortBothById(numbers, text);
  ASSERT_TRUE(orders.ok());
  EXPECT_TRUE(IsInvalidSubmission(CheckSortedIdsEqual(numbers, text, *orders, "m")));
  const Column nan = Ids({Cell(std::nan(""))});
  orders = SortBothById(nan, nan);
  ASSERT_TRUE(orders.ok());
  EXPECT_TRUE(IsInvalidSubmission(CheckSortedIdsEqual(nan, nan, *orders, "m")));
}

TEST(SortedIdPairingTest, UnsortableColumnsAreInvalidOrMalformedAnswers) {
  const Column mixed = Ids({S("a"), Cell(int64_t{2})});
  const Column fine = Ids({S("a"), S("b")});
  absl::StatusOr<SortedIdOrders> orders = SortBothById(mixed, fine);
  EXPECT_TRUE(IsInvalidSubmission(orders.status()));
  EXPECT_THAT(std::string(orders.status().message()), HasSubstr("Cannot sort the submission by id"));
  orders = SortBothById(fine, mixed);
  EXPECT_EQ(orders.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(orders.status().message()), HasSubstr("answers are malformed"));
}

}  // namespace
}  // namespace mlebench
