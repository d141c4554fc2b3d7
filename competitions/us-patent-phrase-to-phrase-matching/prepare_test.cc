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

// Kaggle's train.csv: hex ids, phrases (some with commas, so quoted), CPC
// contexts and scores in quarters.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"id", "anchor", "target", "context", "score"});
  const std::vector<std::string> words = {"gas", "flow", "valve", "noise, reduction", "acid"};
  for (int i = 0; i < rows; ++i) {
    csv.String(rng.Hex(16)).String(rng.Choice(words)).String(rng.Choice(words) + " unit");
    csv.String(absl::StrFormat("H%02d", 1 + rng.UniformInt(40)))
        .Float(0.25 * static_cast<double>(rng.UniformInt(5)))
        .EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  return raw;
}

TEST(UsPatentPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 205;
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
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "anchor", "target", "context", "score"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "anchor", "target", "context", "score"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "anchor", "target", "context"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "score"));
  EXPECT_EQ(answers.num_rows(), 21u);  // ceil(0.1 * 205)
  EXPECT_EQ(train.num_rows(), 184u);
  EXPECT_EQ(test.num_rows(), 21u);
  EXPECT_EQ(sample.num_rows(), 21u);

  absl::StatusOr<Table> old_train = ReadCsvString(train_csv, "train.csv");
  ASSERT_TRUE(old_train.ok());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell>& ids = old_train->Find("id")->cells;
  std::set<Cell> train_ids(train.Find("id")->cells.begin(), train.Find("id")->cells.end());
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const Cell& id = ids[split->test_indices[i]];
    EXPECT_EQ(answers.Find("id")->cells[i], id);
    EXPECT_EQ(test.Find("id")->cells[i], id);
    EXPECT_EQ(sample.Find("id")->cells[i], id);
    EXPECT_EQ(sample.Find("score")->cells[i], Cell(int64_t{0}));
    EXPECT_EQ(train_ids.count(id), 0u);
  }
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(train.Find("id")->cells[i], ids[split->train_indices[i]]);
  }
}

TEST(UsPatentPrepareTest, IsDeterministicAndLeavesRawAlone) {
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
test.to_csv(f"{private}/test.csv", index=False)
test.drop(columns=["score"]).to_csv(f"{public}/test.csv", index=False)
sample = test[["id", "score"]].copy()
sample["score"] = 0
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(UsPatentPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {3000, 12}}) {
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

TEST(UsPatentPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,anchor,target,context\na,b,c,d\ne,f,g,h\n")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("anchor,score\nb,0.5\nc,0.25\n")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,score\na,0.5\n")).ok());  // one row: no split
}

}  // namespace
}  // namespace mlebench::prepare_test
