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

}  // namespace
}  // namespace mlebench
