#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/leaf-classification/classes.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using leaf_classification::Classes;
using testing::ExpectInvalid;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// One row: the id as written, and the text of the class cells that are not
// "0" (a value for a name that is not a class adds nothing).
struct Row {
  std::string id;
  std::map<std::string, std::string> values;
};

// CSV text with `columns` in that order ("id" included where wanted), class
// cells without a value holding `zero`.
std::string Csv(const std::vector<std::string>& columns, const std::vector<Row>& rows,
                const std::string& zero = "0") {
  std::string csv = absl::StrCat(absl::StrJoin(columns, ","), "\n");
  for (const Row& row : rows) {
    std::vector<std::string> cells;
    for (const std::string& column : columns) {
      if (column == "id") {
        cells.push_back(row.id);
      } else {
        auto it = row.values.find(column);
        cells.push_back(it == row.values.end() ? zero : it->second);
      }
    }
    absl::StrAppend(&csv, absl::StrJoin(cells, ","), "\n");
  }
  return csv;
}

std::vector<std::string> IdAndClasses() {
  std::vector<std::string> columns = {"id"};
  columns.insert(columns.end(), Classes().begin(), Classes().end());
  return columns;
}

// The answers: three leaves, one-hot.
const std::vector<Row>& AnswerRows() {
  static const auto* rows = new std::vector<Row>{
      {"3", {{"Acer_Opalus", "1"}}},
      {"17", {{"Quercus_Rubra", "1"}}},
      {"40", {{"Zelkova_Serrata", "1"}}},
  };
  return *rows;
}

absl::StatusOr<double> Grade(const std::string& submission) {
  return testing::GradeCsvText(kId, submission, Csv(IdAndClasses(), AnswerRows()));
}
absl::StatusOr<double> Grade(const std::vector<Row>& rows) {
  return Grade(Csv(IdAndClasses(), rows));
}

// The loss of a row whose true class gets probability 1 (clipped to 1 - eps).
const double kFloor = -std::log(1.0 - std::numeric_limits<double>::epsilon());

// Every outcome below was also checked with upstream's own grade.py (pandas
// and scikit-learn from Debian): same scores, and a raise exactly where we
// say the submission is invalid.

TEST(LeafClassificationGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
  EXPECT_EQ(Classes().size(), 99u);
}

TEST(LeafClassificationGradeTest, PerfectSubmissionCostsOnlyTheClippingFloor) {
  EXPECT_EQ(*Grade({AnswerRows()[2], AnswerRows()[0], AnswerRows()[1]}), kFloor);
  // Columns in another order, probabilities as booleans.
  std::vector<std::string> reversed = IdAndClasses();
  std::reverse(reversed.begin(), reversed.end());
  std::vector<Row> rows = AnswerRows();
  for (Row& row : rows) row.values.begin()->second = "True";
  EXPECT_EQ(*Grade(Csv(reversed, rows, "False")), kFloor);
}

TEST(LeafClassificationGradeTest, HandComputedLoss) {
  EXPECT_EQ(*Grade({{"3", {{"Acer_Opalus", "0.5"}, {"Acer_Mono", "0.5"}}},
                    {"17", {{"Quercus_Rubra", "0.25"}, {"Quercus_Nigra", "0.75"}}},
                    {"40", {{"Zelkova_Serrata", "0.8"}, {"Acer_Mono", "0.2"}}}}),
            ((-std::log(0.5) + -std::log(0.25)) + -std::log(0.8)) / 3.0);
  // A zero for the true class is clipped to eps, not an error.
  EXPECT_EQ(*Grade({{"3", {{"Acer_Mono", "1"}}}, AnswerRows()[1], AnswerRows()[2]}),
            ((-std::log(std::numeric_limits<double>::epsilon()) + kFloor) + kFloor) / 3.0);
}

TEST(LeafClassificationGradeTest, UniformSampleSubmissionScoresLog99) {
  std::vector<Row> rows;
  for (const Row& answer : AnswerRows()) {
    Row row{answer.id, {}};
    for (const std::string& name : Classes()) row.values[name] = "0.010101010101010102";
    rows.push_back(row);
  }
  absl::StatusOr<double> score = Grade(rows);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, std::log(99.0), 1e-12);
}

TEST(LeafClassificationGradeTest, RowSumToleranceIsIscloseWithDefaultRtol) {
  // |sum - 1| <= 1e-6 + 1e-5: 1.00001 passes and is scored unnormalised.
  EXPECT_EQ(*Grade({{"3", {{"Acer_Opalus", "0.50001"}, {"Acer_Mono", "0.5"}}},
                    AnswerRows()[1],
                    AnswerRows()[2]}),
            ((-std::log(0.50001) + kFloor) + kFloor) / 3.0);
  ExpectInvalid(Grade({{"3", {{"Acer_Opalus", "0.50002"}, {"Acer_Mono", "0.5"}}},
                       AnswerRows()[1],
                       AnswerRows()[2]}),
                "should sum to one");
  ExpectInvalid(Grade({{"3", {{"Acer_Opalus", "0.4"}, {"Acer_Mono", "0.5"}}},
                       AnswerRows()[1],
                       AnswerRows()[2]}),
                "row 0 sums to 0.9");
}

TEST(LeafClassificationGradeTest, ProbabilitiesMustBeInRange) {
  ExpectInvalid(Grade({{"3", {{"Acer_Opalus", "1.2"}, {"Acer_Mono", "-0.2"}}},
                       AnswerRows()[1],
                       AnswerRows()[2]}),
                "between 0 and 1");
  // A missing probability is skipped by the row sum, then fails the range check.
  ExpectInvalid(
      Grade({{"3", {{"Acer_Opalus", "1"}, {"Acer_Mono", ""}}}, AnswerRows()[1], AnswerRows()[2]}),
      "between 0 and 1 (column 'Acer_Mono', row 0)");
  // Text cannot be summed.
  ExpectInvalid(
      Grade(
          {{"3", {{"Acer_Opalus", "1"}, {"Acer_Mono", "high"}}}, AnswerRows()[1], AnswerRows()[2]}),
      "cannot be summed");
}

TEST(LeafClassificationGradeTest, ColumnsMustBeExactlyIdAndTheClasses) {
  const std::string message = "must have an 'id' column and a column for each class";
  std::vector<std::string> columns = IdAndClasses();
  columns.pop_back();  // a class missing
  ExpectInvalid(Grade(Csv(columns, AnswerRows())), message);
  columns = IdAndClasses();
  columns.push_back("extra");  // one too many
  ExpectInvalid(Grade(Csv(columns, AnswerRows())), message);
  columns = IdAndClasses();
  columns[0] = "Id";  // the id misnamed
  ExpectInvalid(Grade(Csv(columns, AnswerRows())), message);
  columns = IdAndClasses();
  columns.push_back("Acer_Mono");  // a duplicate (read as "Acer_Mono.1")
  ExpectInvalid(Grade(Csv(columns, AnswerRows())), message);
  ExpectInvalid(Grade(""), message);
}

TEST(LeafClassificationGradeTest, RowCountComesAfterColumns) {
  ExpectInvalid(Grade({AnswerRows()[0], AnswerRows()[1]}), "same number of rows");
  ExpectInvalid(
      Grade({AnswerRows()[0], AnswerRows()[1], AnswerRows()[2], {"41", {{"Acer_Mono", "1"}}}}),
      "same number of rows");
  ExpectInvalid(Grade(Csv(IdAndClasses(), {})), "same number of rows");
}

TEST(LeafClassificationGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade({AnswerRows()[0], AnswerRows()[1], {"41", {{"Zelkova_Serrata", "1"}}}}),
                "Mismatch in Ids between `submission` and `answers` after sorting. Number of "
                "mismatched Ids: 2.");
  ExpectInvalid(Grade({AnswerRows()[0], AnswerRows()[0], AnswerRows()[2]}), "Mismatch in Ids");
  ExpectInvalid(Grade({AnswerRows()[0], {"", {{"Quercus_Rubra", "1"}}}, AnswerRows()[2]}),
                "Mismatch in Ids");
  // Text ids never equal the integer ids.
  ExpectInvalid(Grade({{"a", {{"Acer_Opalus", "1"}}},
                       {"b", {{"Quercus_Rubra", "1"}}},
                       {"c", {{"Zelkova_Serrata", "1"}}}}),
                "Mismatch in Ids");
  // Ids written as floats compare equal by value.
  EXPECT_EQ(*Grade({{"3.0", {{"Acer_Opalus", "1"}}},
                    {"17.0", {{"Quercus_Rubra", "1"}}},
                    {"40.0", {{"Zelkova_Serrata", "1"}}}}),
            kFloor);
}

TEST(LeafClassificationGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = Csv(IdAndClasses(), AnswerRows());
  std::vector<std::string> columns = IdAndClasses();
  columns.pop_back();
  std::vector<Row> not_one_hot = AnswerRows();
  not_one_hot[0].values["Acer_Opalus"] = "2";
  for (const std::string& answers :
       {Csv(columns, AnswerRows()), Csv(IdAndClasses(), not_one_hot), std::string("")}) {
    absl::StatusOr<double> result = testing::GradeCsvText(kId, submission, answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
