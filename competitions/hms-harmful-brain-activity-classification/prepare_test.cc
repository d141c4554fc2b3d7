#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A synthetic raw download (the generator's), copied so tests may edit it.
fs::path Raw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

std::vector<int64_t> Ints(const Table& table, const std::string& column) {
  std::vector<int64_t> out;
  for (const Cell& cell : table.Find(column)->cells) out.push_back(std::get<int64_t>(cell));
  return out;
}

std::set<std::string> ParquetNames(const std::vector<int64_t>& ids) {
  std::set<std::string> names;
  for (int64_t id : ids) names.insert(absl::StrCat(id, ".parquet"));
  return names;
}

std::set<std::string> NamesIn(const fs::path& dir) {
  const std::vector<std::string> names = testing::FileNames(dir);
  return std::set<std::string>(names.begin(), names.end());
}

std::vector<std::string> TopLevel(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return std::vector<std::string>(names.begin(), names.end());
}

TEST(HmsPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const fs::path raw = Raw(3);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(TopLevel(dirs->public_dir),
              ElementsAre("example_figures", "sample_submission.csv", "test.csv", "test_eegs",
                          "test_spectrograms", "train.csv", "train_eegs", "train_spectrograms"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("gold_submission.csv", "test.csv"));
  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table gold = testing::ReadCsvOrFail(dirs->private_dir / "gold_submission.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(), ElementsAre("spectrogram_id", "eeg_id", "patient_id"));
  const std::vector<std::string> submission_columns = {
      "eeg_id", "seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"};
  EXPECT_EQ(gold.ColumnNames(), submission_columns);
  EXPECT_EQ(sample.ColumnNames(), submission_columns);
  EXPECT_EQ(train.num_rows() + answers.num_rows(), old_train.num_rows());
  EXPECT_EQ(test.num_rows(), answers.num_rows());
  EXPECT_EQ(gold.num_rows(), answers.num_rows());
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  EXPECT_EQ(std::get<double>(sample.Find("lpd_vote")->cells[0]), 1.0 / 6);

  // Spectrograms and EEGs are disjoint; ceil(10%) of the spectrograms are held out.
  const std::vector<int64_t> train_spectrograms = Ints(train, "spectrogram_id");
  const std::vector<int64_t> test_spectrograms = Ints(answers, "spectrogram_id");
  const std::set<std::string> train_s = ParquetNames(train_spectrograms);
  const std::set<std::string> test_s = ParquetNames(test_spectrograms);
  EXPECT_EQ(test_s.size(), 4u);  // ceil(0.1 * 40)
  for (const std::string& name : test_s) EXPECT_EQ(train_s.count(name), 0u) << name;
  EXPECT_EQ(NamesIn(dirs->public_dir / "train_spectrograms"), train_s);
  EXPECT_EQ(NamesIn(dirs->public_dir / "test_spectrograms"), test_s);
  EXPECT_EQ(NamesIn(dirs->public_dir / "train_eegs"), ParquetNames(Ints(train, "eeg_id")));
  EXPECT_EQ(NamesIn(dirs->public_dir / "test_eegs"), ParquetNames(Ints(answers, "eeg_id")));
  EXPECT_EQ(NamesIn(dirs->public_dir / "example_figures"), NamesIn(raw / "example_figures"));
}

TEST(HmsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = Raw(4);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas, scikit-learn and shutil.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split
raw, public, private = (Path(p) for p in sys.argv[1:4])
votes = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
table = pd.read_csv(raw / "train.csv", float_precision="round_trip")
keep, held = train_test_split(table["spectrogram_id"].unique(), test_size=0.1, random_state=0)
train = table[table["spectrogram_id"].isin(keep)]
test = table[table["spectrogram_id"].isin(held)]
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
test[["spectrogram_id", "eeg_id", "patient_id"]].to_csv(public / "test.csv", index=False)
gold = test[["eeg_id"] + votes].copy()
gold[votes] = gold[votes].div(gold[votes].sum(axis=1), axis=0)
gold.to_csv(private / "gold_submission.csv", index=False)
gold[votes] = 1 / 6
gold.to_csv(public / "sample_submission.csv", index=False)
shutil.copytree(raw / "example_figures", public / "example_figures")
for part, frame in (("train", train), ("test", test)):
    for kind, column in (("eegs", "eeg_id"), ("spectrograms", "spectrogram_id")):
        (public / f"{part}_{kind}").mkdir()
        for value in frame[column].unique():
            shutil.copy(raw / f"train_{kind}" / f"{value}.parquet", public / f"{part}_{kind}")
)py";

void ExpectMatchesReference(const fs::path& raw) {
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

TEST(HmsPrepareTest, MatchesPandasByteForByte) {
  ExpectMatchesReference(Raw(5));
  // Fractional offsets and a window without votes (its gold shares are NaN).
  const fs::path raw = Raw(6);
  absl::StatusOr<Table> table = ReadCsvFile((raw / "train.csv").string());
  ASSERT_TRUE(table.ok());
  for (Column& column : table->mutable_columns()) {
    for (size_t r = 0; r < column.cells.size(); ++r) {
      if (column.name == "eeg_label_offset_seconds") column.cells[r] = 0.1 * r + 1e-3;
      if (column.name.find("_vote") != std::string::npos && r % 7 == 0) column.cells[r] = int64_t{0};
    }
  }
  ASSERT_TRUE(WriteCsvFile(*table, (raw / "train.csv").string()).ok());
  ExpectMatchesReference(raw);
}

TEST(HmsPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  {
    const fs::path raw = Raw(7);
    fs::remove_all(raw / "example_figures");
    EXPECT_THAT(testing::RunPreparer(kId, raw).status().message(), HasSubstr("example_figures"));
  }
  {
    // Every EEG file gone: whichever is copied first is missing.
    const fs::path raw = Raw(7);
    fs::remove_all(raw / "train_eegs");
    EXPECT_THAT(testing::RunPreparer(kId, raw).status().message(),
                HasSubstr("has no file train_eegs/"));
  }
  {
    // One EEG in two spectrograms ends up on both sides: upstream's assert.
    const fs::path raw = Raw(7);
    absl::StatusOr<Table> table = ReadCsvFile((raw / "train.csv").string());
    ASSERT_TRUE(table.ok());
    Column& eegs = *table->FindMutable("eeg_id");
    for (Cell& cell : eegs.cells) cell = eegs.cells[0];
    ASSERT_TRUE(WriteCsvFile(*table, (raw / "train.csv").string()).ok());
    EXPECT_THAT(testing::RunPreparer(kId, raw).status().message(),
                HasSubstr("eeg_ids are in both train and test"));
  }
  {
    const fs::path raw = Raw(7);
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "eeg_id,spectrogram_id\n1,2\n").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "not,a\n\"csv").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
