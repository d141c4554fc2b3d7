#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct Question {
  std::string id, title, body, tags;
};

std::vector<Question> RandomQuestions(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> tags = {"c# .net", "python", "java android", "php", "c++"};
  std::vector<Question> questions;
  for (int i = 0; i < count; ++i) {
    questions.push_back({std::to_string(i + 1), "Title " + rng.Hex(6),
                         "<p>Body, \"quoted\"\n" + rng.Hex(10) + "</p>\n", rng.Choice(tags)});
  }
  return questions;
}

// Kaggle's layout: Train.zip holding Train.csv, every field quoted.
fs::path MakeRaw(const std::vector<Question>& questions) {
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"Id", "Title", "Body", "Tags"});
  for (const Question& q : questions) csv.Row({q.id, q.title, q.body, q.tags});
  EXPECT_TRUE(WriteZip(raw / "Train.zip", {ZipEntry::FromBytes("Train.csv", csv.text())}).ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(FacebookKeywordPrepareTest, SplitsAndHidesTags) {
  const std::vector<Question> questions = RandomQuestions(50, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(questions));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("Id", "Title", "Body", "Tags"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("Id", "Title", "Body", "Tags"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("Id", "Title", "Body"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("Id", "Title", "Body", "Tags"));
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const Question& q = questions[split->test_indices[i]];
    EXPECT_EQ(answers.Find("Id")->cells[i], Cell(std::stoll(q.id)));
    EXPECT_EQ(Text(answers, "Body", i), q.body);
    EXPECT_EQ(Text(answers, "Tags", i), q.tags);
    EXPECT_EQ(Text(test, "Title", i), q.title);
    EXPECT_EQ(Text(sample, "Tags", i), "javascript c# python php java");
  }
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(Text(train, "Tags", i), questions[split->train_indices[i]].tags);
  }
}

TEST(FacebookKeywordPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomQuestions(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
with zipfile.ZipFile(raw / "Train.zip") as z:
    with z.open("Train.csv") as f:
        old_train = pd.read_csv(f, dtype={"Id": str, "Tags": str}, float_precision="round_trip")
new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
new_test_without_labels = new_test.drop(columns=["Tags"])
sample_submission = new_test_without_labels.copy()
sample_submission["Tags"] = "javascript c# python php java"
new_train.to_csv(public / "train.csv", index=False)
new_test_without_labels.to_csv(public / "test.csv", index=False)
sample_submission.to_csv(public / "sample_submission.csv", index=False)
new_test.to_csv(private / "test.csv", index=False)
)py";

TEST(FacebookKeywordPrepareTest, OutputsMatchPandasByteForByte) {
  std::vector<Question> odd = RandomQuestions(40, 13);
  odd[2].id = "007";            // Id stays text: leading zeros kept
  odd[4].tags = "";             // missing tags stay missing
  odd[6].title = "12.50";       // a number-looking title in a text column
  odd[8].body = "";             // an empty body
  odd[9].tags = "1";            // Tags stays text
  for (const std::vector<Question>& questions :
       {RandomQuestions(2, 10), RandomQuestions(97, 11), RandomQuestions(600, 12), odd}) {
    SCOPED_TRACE(questions.size());
    const fs::path raw = MakeRaw(questions);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(FacebookKeywordPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = testing::NewTempDir("not_zip");
  ASSERT_TRUE(WriteStringToFile(raw / "Train.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = testing::NewTempDir("wrong_member");
  ASSERT_TRUE(WriteZip(raw / "Train.zip", {ZipEntry::FromBytes("train.csv", "Id,Tags\n1,a\n")})
                  .ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = testing::NewTempDir("no_tags");
  ASSERT_TRUE(WriteZip(raw / "Train.zip",
                       {ZipEntry::FromBytes("Train.csv", "Id,Title\n1,a\n2,b\n3,c\n")})
                  .ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
