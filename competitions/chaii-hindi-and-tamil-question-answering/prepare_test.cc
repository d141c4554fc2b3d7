#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's train.csv layout (id, context, question, answer_text,
// answer_start, language); texts hold commas, quotes, newlines and Devanagari
// or Tamil script, ids are nine hex digits (a few all digits), one answer is
// a number and one row has no answer text.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"id", "context", "question", "answer_text", "answer_start", "language"});
  const std::vector<std::string> words = {
      "\xe0\xa4\xad\xe0\xa4\xbe\xe0\xa4\xb0\xe0\xa4\xa4", "Delhi,", "say \"yes\"",
      "line\nbreak", "\xe0\xae\x9a\xe0\xaf\x86\xe0\xae\xa9\xe0\xaf\x8d\xe0\xae\xa9\xe0\xaf\x88",
      "1947"};
  for (int i = 0; i < rows; ++i) {
    csv.String(i % 50 == 7 ? "12345" + std::to_string(1000 + i) : rng.Hex(9));
    const std::string answer = rng.Choice(words);
    csv.String("context " + answer + " more").String("what " + rng.Choice(words) + "?");
    if (i == 3) {
      csv.Missing();
    } else {
      csv.String(answer);
    }
    csv.Int(8).String(rng.Bernoulli(0.6) ? "hindi" : "tamil").EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.csv", "id,context,question,language\n").ok());
  return raw;
}

TEST(ChaiiPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 333;
  const std::string train_csv = RawTrainCsv(rows, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(train_csv));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "context", "question", "answer_text",
                                                 "answer_start", "language"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "PredictionString"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "context", "question", "language"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "PredictionString"));
  EXPECT_EQ(test.num_rows(), 34u);  // ceil(0.1 * 333)
  EXPECT_EQ(answers.num_rows(), 34u);
  EXPECT_EQ(train.num_rows(), 299u);

  const Table old_train = *ReadCsvString(train_csv, "train.csv");
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell>& ids = old_train.Find("id")->cells;
  std::set<Cell> train_ids;
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(train.Find("id")->cells[i], ids[split->train_indices[i]]);
    train_ids.insert(train.Find("id")->cells[i]);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const int64_t row = split->test_indices[i];
    EXPECT_EQ(test.Find("id")->cells[i], ids[row]);
    EXPECT_EQ(answers.Find("id")->cells[i], ids[row]);
    EXPECT_EQ(answers.Find("PredictionString")->cells[i], old_train.Find("answer_text")->cells[row]);
    EXPECT_EQ(sample.Find("id")->cells[i], ids[row]);
    EXPECT_EQ(sample.Find("PredictionString")->cells[i], Cell(std::string("dummy text")));
    EXPECT_EQ(train_ids.count(ids[row]), 0u);
  }
}

TEST(ChaiiPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(120, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train, test = train_test_split(table, test_size=0.1, random_state=0)
train.to_csv(f"{public}/train.csv", index=False)
test.drop(columns=["answer_start", "answer_text"]).to_csv(f"{public}/test.csv", index=False)
answers = test[["id", "answer_text"]]
answers.columns = ["id", "PredictionString"]
answers.to_csv(f"{private}/test.csv", index=False)
sample = answers.copy()
sample["PredictionString"] = "dummy text"
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(ChaiiPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {2000, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainCsv(rows, seed));
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

TEST(ChaiiPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Columns upstream drops or selects are missing.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,answer_text\na,x\nb,y\nc,z\n")).ok());
  EXPECT_FALSE(testing::RunPreparer(
                   kId, MakeRaw("context,answer_text,answer_start\nx,x,0\ny,y,0\nz,z,0\n"))
                   .ok());
  EXPECT_FALSE(
      testing::RunPreparer(kId, MakeRaw("id,context,answer_start\na,x,0\nb,y,0\nc,z,0\n")).ok());
  // Too few rows to split.
  EXPECT_FALSE(
      testing::RunPreparer(kId, MakeRaw("id,context,answer_text,answer_start\na,x,x,0\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
