#include "grading/metrics/metric_inputs.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Column Strings(std::string name, std::vector<std::string> v) {
  Column c{std::move(name), Dtype::kObject, {}};
  for (std::string& s : v) c.cells.emplace_back(std::move(s));
  return c;
}
Column Doubles(std::string name, std::vector<double> v) {
  Column c{std::move(name), Dtype::kFloat64, {}};
  for (double x : v) c.cells.emplace_back(x);
  return c;
}
Column Ints(std::string name, std::vector<int64_t> v) {
  Column c{std::move(name), Dtype::kInt64, {}};
  for (int64_t x : v) c.cells.emplace_back(x);
  return c;
}

TEST(ParseNumericStringTest, AcceptsWhatToNumericAccepts) {
  EXPECT_EQ(ParseNumericString("0.5"), 0.5);
  EXPECT_EQ(ParseNumericString(" 0.25 "), 0.25);
  EXPECT_EQ(ParseNumericString("-1e-3"), -0.001);
  EXPECT_EQ(ParseNumericString("+.5"), 0.5);
  EXPECT_EQ(ParseNumericString("5."), 5.0);
  EXPECT_EQ(ParseNumericString("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(ParseNumericString("-Infinity"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(ParseNumericString("+INF"), std::numeric_limits<double>::infinity());
}

TEST(ParseNumericStringTest, RejectsText) {
  for (const char* s : {"", " ", "abc", "0.5x", "1e", ".", "--1", "1,5", "0x10", "nan", "1_0",
                        "infinity ", " inf"}) {
    EXPECT_FALSE(ParseNumericString(s).has_value()) << s;
  }
}

TEST(PrepareForAccuracyMetricTest, AlignsBothTablesById) {
  Table answers({Strings("id", {"b", "a", "c"}), Ints("y", {2, 1, 3})});
  Table submission({Ints("y", {30, 10, 20}), Strings("id", {"c", "a", "b"})});
  absl::StatusOr<AccuracyInputs> inputs = PrepareForAccuracyMetric(submission, answers, "id", "y");
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  EXPECT_THAT(inputs->y_true.cells,
              ElementsAre(Cell{int64_t{1}}, Cell{int64_t{2}}, Cell{int64_t{3}}));
  EXPECT_THAT(inputs->y_pred.cells,
              ElementsAre(Cell{int64_t{10}}, Cell{int64_t{20}}, Cell{int64_t{30}}));
}

TypedTable TypedIdsAndLabels(std::vector<std::string_view> ids, std::vector<int64_t> y) {
  std::vector<TypedColumn> columns;
  columns.push_back(TypedColumn::Text("id", std::move(ids)));
  columns.push_back(TypedColumn::Ints("y", std::move(y)));
  return TypedTable(std::move(columns), nullptr);
}

// Typed int64 targets whose ids pair row by row stay in file order (no
// sort, no cells): the same accuracy as the sorted cells give.
TEST(PrepareForAccuracyMetricTest, RowsPairedRowByRowNeedNoSort) {
  const TypedTable submission = TypedIdsAndLabels({"b", "a", "c", "d"}, {2, 1, 3, 3});
  const TypedTable answers = TypedIdsAndLabels({"b", "a", "c", "d"}, {2, 1, 1, 3});
  absl::StatusOr<AccuracyInputs> inputs =
      PrepareForAccuracyMetric(submission, answers, "id", "y");
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  ASSERT_TRUE(inputs->int64.has_value());
  EXPECT_TRUE(inputs->y_true.cells.empty());
  EXPECT_THAT(inputs->int64->y_true, ElementsAre(2, 1, 1, 3));
  EXPECT_THAT(inputs->int64->y_pred, ElementsAre(2, 1, 3, 3));
  EXPECT_TRUE(inputs->int64->true_order.empty());
  absl::StatusOr<AccuracyInputs> sorted = PrepareForAccuracyMetric(
      Table({Strings("id", {"b", "a", "c", "d"}), Ints("y", {2, 1, 3, 3})}),
      Table({Strings("id", {"b", "a", "c", "d"}), Ints("y", {2, 1, 1, 3})}), "id", "y");
  ASSERT_TRUE(sorted.ok()) << sorted.status();
  ASSERT_FALSE(sorted->int64.has_value());
  EXPECT_EQ(*AccuracyScore(*inputs), *AccuracyScore(*sorted));
  EXPECT_EQ(*AccuracyScore(*inputs), 0.75);
}

// Typed int64 targets whose ids need sorting pair through the two orders;
// the score is the cells' score, and unmatched ids are still rejected.
TEST(PrepareForAccuracyMetricTest, Int64LabelsPairThroughTheIdOrders) {
  const TypedTable submission = TypedIdsAndLabels({"d", "c", "b", "a"}, {7, 5, 2, 1});
  const TypedTable answers = TypedIdsAndLabels({"b", "a", "c", "d"}, {2, 1, 5, 8});
  absl::StatusOr<AccuracyInputs> inputs =
      PrepareForAccuracyMetric(submission, answers, "id", "y");
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  ASSERT_TRUE(inputs->int64.has_value());
  EXPECT_THAT(inputs->int64->true_order, ElementsAre(1, 0, 2, 3));
  EXPECT_THAT(inputs->int64->pred_order, ElementsAre(3, 2, 1, 0));
  absl::StatusOr<AccuracyInputs> cells = PrepareForAccuracyMetric(
      Table({Strings("id", {"d", "c", "b", "a"}), Ints("y", {7, 5, 2, 1})}),
      Table({Strings("id", {"b", "a", "c", "d"}), Ints("y", {2, 1, 5, 8})}), "id", "y");
  ASSERT_TRUE(cells.ok()) << cells.status();
  EXPECT_EQ(*AccuracyScore(*inputs), *AccuracyScore(*cells));
  EXPECT_EQ(*AccuracyScore(*inputs), 0.75);

  absl::StatusOr<AccuracyInputs> unmatched = PrepareForAccuracyMetric(
      TypedIdsAndLabels({"d", "c", "b", "x"}, {7, 5, 2, 1}), answers, "id", "y");
  EXPECT_THAT(unmatched.status().message(), HasSubstr("`id`'s do not match"));

  absl::StatusOr<AccuracyInputs> empty = PrepareForAccuracyMetric(
      TypedIdsAndLabels({}, {}), TypedIdsAndLabels({}, {}), "id", "y");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(std::isnan(*AccuracyScore(*empty)));
}

TEST(PrepareForAccuracyMetricTest, BlamesTheRightTable) {
  Table answers({Strings("id", {"a", "b"}), Ints("y", {1, 0})});
  // Ids mixing text and numbers cannot be sorted: the submission's fault...
  Column mixed{"id", Dtype::kObject, {Cell{std::string("a")}, Cell{int64_t{1}}}};
  absl::StatusOr<AccuracyInputs> bad_submission =
      PrepareForAccuracyMetric(Table({mixed, Ints("y", {1, 0})}), answers, "id", "y");
  EXPECT_TRUE(IsInvalidSubmission(bad_submission.status())) << bad_submission.status();
  // ...or the answers'.
  absl::StatusOr<AccuracyInputs> bad_answers =
      PrepareForAccuracyMetric(Table({Strings("id", {"a", "b"}), Ints("y", {1, 0})}),
                               Table({mixed, Ints("y", {1, 0})}), "id", "y");
  EXPECT_EQ(bad_answers.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(IsInvalidSubmission(bad_answers.status()));
}

TEST(PrepareForAurocMetricTest, ConvertsAndAligns) {
  Table answers({Strings("id", {"b", "a"}), Ints("t", {0, 1})});
  Column scores{"t", Dtype::kObject, {Cell{true}, Cell{}}};  // bools with a hole
  absl::StatusOr<AurocInputs> inputs =
      PrepareForAurocMetric(Table({Strings("id", {"a", "b"}), scores}), answers, "id", "t");
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  EXPECT_THAT(inputs->y_true, ElementsAre(1.0, 0.0));
  ASSERT_EQ(inputs->y_score.size(), 2u);
  EXPECT_EQ(inputs->y_score[0], 1.0);
  EXPECT_TRUE(std::isnan(inputs->y_score[1]));
}

TEST(PrepareForAurocMetricTest, NumericTextCannotBeComparedWithZero) {
  Table answers({Strings("id", {"a", "b"}), Ints("t", {0, 1})});
  absl::StatusOr<AurocInputs> inputs = PrepareForAurocMetric(
      Table({Strings("id", {"a", "b"}), Strings("t", {"0.5", "0.25"})}), answers, "id", "t");
  ASSERT_FALSE(inputs.ok());
  EXPECT_TRUE(IsInvalidSubmission(inputs.status()));
  EXPECT_NE(inputs.status().message().find("'str' and 'int'"), std::string::npos);
}

TEST(OneHotTablesToLogLossInputsTest, KeepsAnswerColumnOrderAndDropsExtras) {
  Table answers({Strings("id", {"y", "x"}), Ints("A", {0, 1}), Ints("B", {1, 0})});
  Table submission({Doubles("B", {0.1, 0.8}), Strings("note", {"p", "q"}),
                    Strings("id", {"x", "y"}), Doubles("A", {0.9, 0.2})});
  absl::StatusOr<LogLossInputs> inputs = OneHotTablesToLogLossInputs(submission, answers, "id");
  ASSERT_TRUE(inputs.ok()) << inputs.status();
  EXPECT_EQ(inputs->rows, 2u);
  EXPECT_EQ(inputs->cols, 2u);
  // Rows x, y; columns A, B.
  EXPECT_THAT(inputs->y_true, ElementsAre(1, 0, 0, 1));
  EXPECT_THAT(inputs->y_pred, ElementsAre(0.9, 0.1, 0.2, 0.8));
}

TEST(OneHotTablesToLogLossInputsTest, Errors) {
  Table answers({Strings("id", {"x", "y"}), Ints("A", {0, 1}), Ints("B", {1, 0})});
  absl::StatusOr<LogLossInputs> missing = OneHotTablesToLogLossInputs(
      Table({Strings("id", {"x", "y"}), Doubles("A", {0.9, 0.2})}), answers, "id");
  EXPECT_TRUE(IsInvalidSubmission(missing.status()));
  EXPECT_NE(missing.status().message().find("Missing columns: {'B'}"), std::string::npos);

  absl::StatusOr<LogLossInputs> text = OneHotTablesToLogLossInputs(
      Table({Strings("id", {"x", "y"}), Strings("A", {"0.5", "high"}), Doubles("B", {0.5, 0.5})}),
      answers, "id");
  EXPECT_TRUE(IsInvalidSubmission(text.status()));
  EXPECT_NE(text.status().message().find("could not convert string to float: 'high'"),
            std::string::npos);

  absl::StatusOr<LogLossInputs> ids = OneHotTablesToLogLossInputs(
      Table({Strings("id", {"x"}), Doubles("A", {0.9}), Doubles("B", {0.1})}), answers, "id");
  EXPECT_TRUE(IsInvalidSubmission(ids.status()));
  EXPECT_NE(ids.status().message().find("Number of mismatched Ids: 1."), std::string::npos);

  Table bad_answers({Strings("id", {"x"}), Doubles("A", {0.5})});
  absl::StatusOr<LogLossInputs> internal = OneHotTablesToLogLossInputs(
      Table({Strings("id", {"x"}), Doubles("A", {0.9})}), bad_answers, "id");
  EXPECT_EQ(internal.status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace mlebench
