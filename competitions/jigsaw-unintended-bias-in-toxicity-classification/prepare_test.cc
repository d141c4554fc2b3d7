#include <filesystem>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A labelled test file with `columns` columns: id, comment_text (with
// commas, quotes, newlines, non-ASCII text, the odd empty comment), then
// scores with missing values.
std::string ExpandedCsv(int rows, int columns, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.String("id").String("comment_text");
  for (int c = 2; c < columns; ++c) csv.String(c == 2 ? "toxicity" : "score" + std::to_string(c));
  csv.EndRow();
  const std::vector<std::string> texts = {"Hi, there", "say \"yes\" now", "line\nbreak",
                                          "caf\xc3\xa9", " ok ", "1.5"};
  for (int i = 0; i < rows; ++i) {
    csv.Int(7000000 + 3 * i);
    if (i % 17 == 5) {
      csv.Missing();
    } else {
      csv.String(rng.Choice(texts));
    }
    for (int c = 2; c < columns; ++c) {
      if (rng.Bernoulli(0.2)) {
        csv.Missing();
      } else {
        csv.Float(static_cast<double>(rng.UniformInt(0, 7)) / 7.0);
      }
    }
    csv.EndRow();
  }
  return csv.text();
}

constexpr char kTrainCsv[] = "id,target,comment_text\n1,0.5,\"a, b\"\n2,0.0,c\n";

fs::path MakeRaw(const std::string& expanded_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "test_private_expanded.csv", expanded_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", kTrainCsv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.csv", "id,comment_text\n9,x\n").ok());
  return raw;
}

TEST(JigsawUnintendedBiasPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const std::string expanded = ExpandedCsv(120, 45, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(expanded));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  // The answers and train.csv are byte copies of the raw files.
  EXPECT_EQ(*ReadFileToString(dirs->private_dir / "test.csv"), expanded);
  EXPECT_EQ(*ReadFileToString(dirs->public_dir / "train.csv"), kTrainCsv);

  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "comment_text"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "prediction"));
  ASSERT_EQ(test.num_rows(), 120u);
  ASSERT_EQ(sample.num_rows(), 120u);
  for (size_t i = 0; i < 120; ++i) {
    EXPECT_EQ(test.Find("id")->cells[i], answers.Find("id")->cells[i]);
    EXPECT_EQ(test.Find("comment_text")->cells[i], answers.Find("comment_text")->cells[i]);
    EXPECT_EQ(sample.Find("id")->cells[i], answers.Find("id")->cells[i]);
    EXPECT_EQ(sample.Find("prediction")->cells[i], Cell(0.0));
  }
}

TEST(JigsawUnintendedBiasPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(ExpandedCsv(60, 45, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas.
constexpr char kReference[] = R"py(
import shutil
import sys
import pandas as pd

raw, public, private = sys.argv[1:4]
test = pd.read_csv(f"{raw}/test_private_expanded.csv", float_precision="round_trip")
shutil.copy(f"{raw}/test_private_expanded.csv", f"{private}/test.csv")
shutil.copy(f"{raw}/train.csv", f"{public}/train.csv")
test_without_labels = test[["id", "comment_text"]]
test_without_labels.to_csv(f"{public}/test.csv", index=False)
sample = test_without_labels.copy().drop(columns=["comment_text"])
sample["prediction"] = 0.0
sample.to_csv(f"{public}/sample_submission.csv", index=False)
assert test.shape[1] == 45
)py";

TEST(JigsawUnintendedBiasPrepareTest, MatchesPandasByteForByte) {
  const std::vector<fs::path> raws = {MakeRaw(ExpandedCsv(1, 45, 10)),
                                      MakeRaw(ExpandedCsv(333, 45, 11)),
                                      MakeRaw(ExpandedCsv(2000, 45, 12))};
  for (const fs::path& raw : raws) {
    SCOPED_TRACE(raw.string());
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

TEST(JigsawUnintendedBiasPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Not Kaggle's 45 columns (upstream's assert).
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(ExpandedCsv(10, 44, 4))).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(ExpandedCsv(10, 46, 4))).ok());
  // No comment_text column.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,toxicity\n1,0.5\n")).ok());
  // No train.csv to copy.
  const fs::path raw = MakeRaw(ExpandedCsv(10, 45, 5));
  fs::remove(raw / "train.csv");
  EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
