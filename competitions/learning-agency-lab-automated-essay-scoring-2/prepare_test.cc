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
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's train.csv: 7-hex-digit ids, multi-paragraph essays (quoted), int
// scores 1..6.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"essay_id", "full_text", "score"});
  const std::vector<std::string> sentences = {"Cars are good.", "I think, \"so\".",
                                              "Students\n\nlearn.", "\xc3\xa9t\xc3\xa9 ok."};
  for (int i = 0; i < rows; ++i) {
    csv.String(absl::StrFormat("%07x", 1000003 * i + 17))
        .String(rng.Choice(sentences) + " " + rng.Choice(sentences))
        .Int(1 + static_cast<int64_t>(rng.UniformInt(6)))
        .EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  return raw;
}

TEST(EssayScoringPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 205;
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
  EXPECT_THAT(train.ColumnNames(), ElementsAre("essay_id", "full_text", "score"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("essay_id", "full_text", "score"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("essay_id", "full_text"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("essay_id", "score"));
  EXPECT_EQ(answers.num_rows(), 21u);
  EXPECT_EQ(train.num_rows(), 184u);
  EXPECT_EQ(sample.num_rows(), 21u);
  EXPECT_EQ(sample.Find("score")->dtype, Dtype::kInt64);
  // np.random.RandomState(42).randint(1, 7, size=21) begins 4, 5, 3, 5, 5.
  EXPECT_THAT(std::vector<Cell>(sample.Find("score")->cells.begin(),
                                sample.Find("score")->cells.begin() + 5),
              ElementsAre(Cell(int64_t{4}), Cell(int64_t{5}), Cell(int64_t{3}), Cell(int64_t{5}),
                          Cell(int64_t{5})));

  absl::StatusOr<Table> old_train = ReadCsvString(train_csv, "train.csv");
  ASSERT_TRUE(old_train.ok());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell>& ids = old_train->Find("essay_id")->cells;
  std::set<Cell> train_ids(train.Find("essay_id")->cells.begin(),
                           train.Find("essay_id")->cells.end());
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const Cell& id = ids[split->test_indices[i]];
    EXPECT_EQ(answers.Find("essay_id")->cells[i], id);
    EXPECT_EQ(test.Find("essay_id")->cells[i], id);
    EXPECT_EQ(sample.Find("essay_id")->cells[i], id);
    EXPECT_EQ(train_ids.count(id), 0u);
  }
}

TEST(EssayScoringPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(120, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas, numpy and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train, answers = train_test_split(table, test_size=0.1, random_state=0)
sample = answers[["essay_id"]].copy()
sample["score"] = np.random.RandomState(42).randint(1, 7, size=len(sample))
answers.to_csv(f"{private}/answers.csv", index=False)
train.to_csv(f"{public}/train.csv", index=False)
answers.drop(columns=["score"]).to_csv(f"{public}/test.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(EssayScoringPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {2000, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainCsv(rows, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(EssayScoringPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // No score; no essay_id; an extra column (upstream's column assert).
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("essay_id,full_text\na,x\nb,y\nc,z\n")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("full_text,score\nx,1\ny,2\nz,3\n")).ok());
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw("essay_id,full_text,prompt,score\n"
                                                "a,x,p,1\nb,y,p,2\nc,z,p,3\n"))
                  .status()
                  .message(),
              HasSubstr("Test set columns"));
  // Every row shares one id, so train and test overlap.
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw("essay_id,full_text,score\n"
                                                "a,x,1\na,y,2\na,z,3\n"))
                  .status()
                  .message(),
              HasSubstr("not disjoint"));
}

}  // namespace
}  // namespace mlebench::prepare_test
