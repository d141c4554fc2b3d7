#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
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

// Kaggle's train.csv layout; prompts and responses hold quotes, commas,
// newlines and non-ASCII text, and a few responses are missing ("null").
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"id", "model_a", "model_b", "prompt", "response_a", "response_b", "winner_model_a",
           "winner_model_b", "winner_tie"});
  const std::vector<std::string> texts = {"[\"Hi, there\"]", "[\"say \\\"yes\\\"\"]",
                                          "[\"line\\nbreak\", \"two\"]", "[null]", "[\"caf\xc3\xa9\"]",
                                          "[\"a\nb\"]"};
  for (int i = 0; i < rows; ++i) {
    const int winner = static_cast<int>(rng.UniformInt(3));
    csv.Int(1000 + 37 * i).String(absl::StrFormat("model-%d", rng.UniformInt(4)))
        .String("model-x").String(rng.Choice(texts)).String(rng.Choice(texts))
        .String(rng.Choice(texts));
    for (int w = 0; w < 3; ++w) csv.Int(w == winner ? 1 : 0);
    csv.EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.csv", "id,prompt,response_a,response_b\n").ok());
  return raw;
}

TEST(LmsysChatbotArenaPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 333;
  const std::string train_csv = RawTrainCsv(rows, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(train_csv));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table old_train = *ReadCsvString(train_csv, "train.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "prompt", "response_a", "response_b"));
  EXPECT_THAT(sample.ColumnNames(),
              ElementsAre("id", "winner_model_a", "winner_model_b", "winner_tie"));
  EXPECT_EQ(test.num_rows(), 34u);  // ceil(0.1 * 333)
  EXPECT_EQ(answers.num_rows(), 34u);
  EXPECT_EQ(train.num_rows(), 299u);

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
    EXPECT_EQ(answers.Find("winner_tie")->cells[i], old_train.Find("winner_tie")->cells[row]);
    EXPECT_EQ(test.Find("response_b")->cells[i], old_train.Find("response_b")->cells[row]);
    EXPECT_EQ(sample.Find("id")->cells[i], ids[row]);
    EXPECT_EQ(sample.Find("winner_tie")->cells[i], Cell(0.3333333333333333));
    EXPECT_EQ(train_ids.count(ids[row]), 0u);
  }
}

TEST(LmsysChatbotArenaPrepareTest, IsDeterministicAndLeavesRawAlone) {
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
train, answers = train_test_split(table, test_size=0.1, random_state=0)
sample = answers[["id"]].copy()
for column in ["winner_model_a", "winner_model_b", "winner_tie"]:
    sample[column] = 0.3333333333333333
answers.to_csv(f"{private}/answers.csv", index=False)
train.to_csv(f"{public}/train.csv", index=False)
answers[["id", "prompt", "response_a", "response_b"]].to_csv(f"{public}/test.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(LmsysChatbotArenaPrepareTest, MatchesPandasByteForByte) {
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

TEST(LmsysChatbotArenaPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Columns upstream selects are missing.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,prompt,response_a\n1,a,b\n2,c,d\n3,e,f\n")).ok());
  EXPECT_FALSE(
      testing::RunPreparer(kId, MakeRaw("prompt,response_a,response_b\na,b,c\nd,e,f\ng,h,i\n")).ok());
  // Too few rows to split.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,prompt,response_a,response_b\n1,a,b,c\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
