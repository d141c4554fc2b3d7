// grader.h: reading a grader's answers in its answers format.
#include "grading/grader.h"

#include <fstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

absl::StatusOr<double> NoGrade(const Table&, const Table&) { return 0.0; }

TEST(ReadAnswersTest, FollowsTheGradersAnswersFormat) {
  CompetitionGrader grader{.id = "x", .grade = &NoGrade};
  // The default stays CSV.
  absl::StatusOr<TypedTable> csv = ReadAnswersString(grader, "id,y\n1,2\n", "answers.csv");
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_EQ(csv->ColumnNames(), (std::vector<std::string>{"id", "y"}));
  EXPECT_EQ(csv->columns()[0].dtype(), Dtype::kInt64);
  grader.answers_format = AnswersFormat::kJsonLines;
  absl::StatusOr<TypedTable> jsonl =
      ReadAnswersString(grader, "{\"id\":1,\"y\":[2]}\n", "answers.jsonl");
  ASSERT_TRUE(jsonl.ok()) << jsonl.status();
  EXPECT_EQ(jsonl->columns()[1].CellAt(0), Cell(std::string("[2]")));
  EXPECT_FALSE(ReadAnswersString(grader, "id,y\n1,2\n", "answers.jsonl").ok());
  // Files too: the same text is a table of either format.
  const std::string path = std::string(::testing::TempDir()) + "/answers_file";
  std::ofstream(path) << "{\"id\":\"1\"}\n";
  absl::StatusOr<TypedTable> from_jsonl = ReadAnswersFile(grader, path);
  ASSERT_TRUE(from_jsonl.ok()) << from_jsonl.status();
  EXPECT_EQ(from_jsonl->ColumnNames(), (std::vector<std::string>{"id"}));
  grader.answers_format = AnswersFormat::kCsv;
  absl::StatusOr<TypedTable> from_csv = ReadAnswersFile(grader, path);
  ASSERT_TRUE(from_csv.ok()) << from_csv.status();
  EXPECT_EQ(from_csv->ColumnNames(), (std::vector<std::string>{"{\"id\":\"1\"}"}));
}

TEST(ReadAnswersTest, OnlyTheListedColumnsWhereTheAnswersHaveThemAll) {
  CompetitionGrader grader{.id = "x", .grade = &NoGrade};
  grader.answers_csv.only_columns = {"id", "y"};
  const std::string path = std::string(::testing::TempDir()) + "/wide_answers.csv";
  std::ofstream(path) << "id,note,y\n1,a,2\n3,b,4\n";
  CsvShape shape;
  absl::StatusOr<TypedTable> file = ReadAnswersFile(grader, path, &shape);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->ColumnNames(), (std::vector<std::string>{"id", "y"}));
  EXPECT_EQ(shape.rows, 2);
  EXPECT_EQ(shape.columns, 3);
  absl::StatusOr<TypedTable> text = ReadAnswersString(grader, "id,note,y\n1,a,2\n", "a.csv");
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->ColumnNames(), (std::vector<std::string>{"id", "y"}));
  // Answers without `y` are read whole: the grader's own checks see them as
  // they are (its rows too, which a table of `id` alone would have lost).
  for (const std::string& answers : {std::string("id,note\n1,a\n"), std::string("note\na\n")}) {
    absl::StatusOr<TypedTable> whole = ReadAnswersString(grader, answers, "a.csv");
    ASSERT_TRUE(whole.ok()) << whole.status();
    EXPECT_EQ(whole->ColumnNames(), ReadAnswersString(CompetitionGrader{.id = "x"}, answers,
                                                      "a.csv")->ColumnNames());
    EXPECT_EQ(whole->num_rows(), 1u);
  }
}

}  // namespace
}  // namespace mlebench
