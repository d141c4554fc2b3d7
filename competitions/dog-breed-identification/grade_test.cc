#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/dog-breed-identification/classes.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using dog_breed_identification::Breeds;
using testing::ExpectInvalid;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// One row: the id, and the text of the breed cells that are not `zero`.
struct Row {
  std::string id;
  std::map<std::string, std::string> values;
};

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

std::vector<std::string> IdAndBreeds() {
  std::vector<std::string> columns = {"id"};
  columns.insert(columns.end(), Breeds().begin(), Breeds().end());
  return columns;
}

// The answers: three dogs, one-hot, hex ids as on Kaggle.
const std::vector<Row>& AnswerRows() {
  static const auto* rows = new std::vector<Row>{
      {"000bec180eb18c7604dcecc8fe0dba07", {{"boston_bull", "1"}}},
      {"001513dfcb2ffafc82cccf4d8bbaba97", {{"dingo", "1"}}},
      {"fff43b07992508bc822f33d8ffd902ae", {{"yorkshire_terrier", "1"}}},
  };
  return *rows;
}

absl::StatusOr<double> Grade(const std::string& submission) {
  return testing::GradeCsvText(kId, submission, Csv(IdAndBreeds(), AnswerRows()));
}
absl::StatusOr<double> Grade(const std::vector<Row>& rows) {
  return Grade(Csv(IdAndBreeds(), rows));
}

// The loss of a row whose true class gets probability 1 (clipped to 1 - eps).
const double kFloor = -std::log(1.0 - std::numeric_limits<double>::epsilon());

TEST(DogBreedGradeTest, RegisteredWithUpstreamsMetric) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
  ASSERT_EQ(Breeds().size(), 120u);
  EXPECT_EQ(Breeds().front(), "affenpinscher");
  EXPECT_EQ(Breeds().back(), "yorkshire_terrier");
}

TEST(DogBreedGradeTest, PerfectSubmissionInAnyRowAndColumnOrder) {
  absl::StatusOr<double> score = Grade(AnswerRows());
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, kFloor);
  // Rows shuffled, breed columns reversed, an extra column (dropped by
  // upstream's one_hot_dfs_to_log_loss_inputs).
  std::vector<std::string> columns(Breeds().rbegin(), Breeds().rend());
  columns.push_back("id");
  columns.push_back("note");
  std::vector<Row> rows = {AnswerRows()[2], AnswerRows()[0], AnswerRows()[1]};
  for (Row& row : rows) row.values["note"] = "7";
  score = Grade(Csv(columns, rows));
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, kFloor);
}

TEST(DogBreedGradeTest, HandComputedLoss) {
  // Row 1: 0.5 on the true breed; row 2: 0.25; row 3: 1 (clipped).
  std::vector<Row> rows = {
      {AnswerRows()[0].id, {{"boston_bull", "0.5"}, {"affenpinscher", "0.5"}}},
      {AnswerRows()[1].id, {{"dingo", "0.25"}, {"pug", "0.75"}}},
      AnswerRows()[2],
  };
  absl::StatusOr<double> score = Grade(rows);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, (std::log(2.0) + std::log(4.0) + kFloor) / 3, 1e-15);
  // The uniform sample submission scores log(120).
  score = Grade(Csv(IdAndBreeds(), {{AnswerRows()[0].id, {}}, {AnswerRows()[1].id, {}},
                                    {AnswerRows()[2].id, {}}},
                    "0.008333333333333333"));
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, std::log(120.0), 1e-9);
  // A zero on the true breed is clipped to eps = 2**-52.
  rows = {{AnswerRows()[0].id, {{"pug", "1"}}}, AnswerRows()[1], AnswerRows()[2]};
  score = Grade(rows);
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, (52 * std::log(2.0) + 2 * kFloor) / 3, 1e-12);
}

// Outcomes in this file were also checked against upstream's own grade.py
// (pandas 1.5, scikit-learn 1.2, where no clipping is involved), e.g. this
// case, which it scores 0.72827 after round(x, 5).
TEST(DogBreedGradeTest, MatchesUpstreamsGradePy) {
  absl::StatusOr<double> score = Grade(std::vector<Row>{
      {AnswerRows()[0].id, {{"boston_bull", "0.5"}, {"affenpinscher", "0.5"}}},
      {AnswerRows()[1].id, {{"dingo", "0.25"}, {"pug", "0.75"}}},
      {AnswerRows()[2].id, {{"yorkshire_terrier", "0.9"}, {"pug", "0.1"}}},
  });
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_NEAR(*score, 0.72827, 5e-6);
}

TEST(DogBreedGradeTest, ColumnChecksInUpstreamOrder) {
  std::vector<std::string> no_pug;
  for (const std::string& c : IdAndBreeds()) {
    if (c != "pug") no_pug.push_back(c);
  }
  ExpectInvalid(Grade(Csv(no_pug, AnswerRows())), "columns for all 120 dog breeds");
  // Breeds checked before id.
  std::vector<std::string> no_id(Breeds().begin(), Breeds().end() - 1);
  ExpectInvalid(Grade(Csv(no_id, AnswerRows())), "columns for all 120 dog breeds");
  ExpectInvalid(Grade(Csv(std::vector<std::string>(Breeds()), AnswerRows())), "`id` column");
  ExpectInvalid(Grade(""), "columns for all 120 dog breeds");
}

TEST(DogBreedGradeTest, LengthMustMatch) {
  ExpectInvalid(Grade(std::vector<Row>{AnswerRows()[0], AnswerRows()[1]}), "same length");
  std::vector<Row> four = AnswerRows();
  four.push_back({"abc", {{"pug", "1"}}});
  ExpectInvalid(Grade(four), "same length");
}

TEST(DogBreedGradeTest, RowsMustBeProbabilities) {
  // Sums off by more than 1e-6 + 1e-5.
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "0.9"}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "sum to one");
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "1.00002"}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "sum to one");
  // Within the tolerance the sum passes (and 0.999995 the range check too).
  EXPECT_TRUE(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "0.999995"}}},
                                     AnswerRows()[1], AnswerRows()[2]})
                  .ok());
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "1.000005"}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "between 0 and 1");
  // Sums to one but out of range.
  ExpectInvalid(Grade(std::vector<Row>{
                    {AnswerRows()[0].id, {{"boston_bull", "1.5"}, {"pug", "-0.5"}}},
                    AnswerRows()[1], AnswerRows()[2]}),
                "between 0 and 1");
  // A missing value is skipped by the sum, then fails the range check.
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "1"}, {"pug", ""}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "between 0 and 1");
  // Text.
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "1"}, {"pug", "x"}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "cannot be summed");
  ExpectInvalid(Grade(std::vector<Row>{{AnswerRows()[0].id, {{"boston_bull", "inf"}}},
                                       AnswerRows()[1], AnswerRows()[2]}),
                "sum to one");
}

TEST(DogBreedGradeTest, IdsMustMatchAfterSorting) {
  ExpectInvalid(Grade(std::vector<Row>{{"other", {{"boston_bull", "1"}}}, AnswerRows()[1],
                                       AnswerRows()[2]}),
                "");
  ExpectInvalid(Grade(std::vector<Row>{AnswerRows()[0], AnswerRows()[0], AnswerRows()[2]}), "");
}

TEST(DogBreedGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  std::vector<std::string> no_pug;
  for (const std::string& c : IdAndBreeds()) {
    if (c != "pug") no_pug.push_back(c);
  }
  for (const std::string& answers :
       {Csv(no_pug, AnswerRows()), Csv(std::vector<std::string>(Breeds()), AnswerRows())}) {
    absl::StatusOr<double> result =
        testing::GradeCsvText(kId, Csv(IdAndBreeds(), AnswerRows()), answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status()));
  }
}

}  // namespace
}  // namespace mlebench::grade_test
