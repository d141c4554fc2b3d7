#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/table.h"
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
// Upstream holds out exactly this many rows.
constexpr int64_t kTestRows = 100'000;

// A raw train.csv with a few of Kaggle's columns (a float at full
// precision, a count, the letter code, the label); raw ids start at 900000
// so that the renumbering shows.
std::string RawTrainCsv(int64_t rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"id", "f_00", "f_07", "f_27", "target"});
  for (int64_t i = 0; i < rows; ++i) {
    csv.Int(900'000 + i).Float(rng.Normal()).Int(rng.UniformInt(0, 9));
    std::string letters;
    for (int pos = 0; pos < 10; ++pos)
      letters.push_back(static_cast<char>('A' + rng.UniformInt(5)));
    csv.String(letters).Int(rng.Bernoulli(0.49) ? 1 : 0).EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

std::vector<Cell> Range(int64_t first, int64_t count) {
  std::vector<Cell> cells;
  for (int64_t i = 0; i < count; ++i) cells.push_back(first + i);
  return cells;
}

// One raw download of 100,237 rows, prepared once for the tests below
// (preparing 100,000-row test sets takes a moment).
class TabularPlaygroundMay2022PrepareTest : public ::testing::Test {
 protected:
  static constexpr int64_t kRawRows = kTestRows + 237;

  static void SetUpTestSuite() {
    raw_ = new fs::path(MakeRaw(RawTrainCsv(kRawRows, 1)));
    absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, *raw_);
    ASSERT_TRUE(dirs.ok()) << dirs.status();
    dirs_ = new testing::PreparedDirs(*dirs);
  }
  static void TearDownTestSuite() {
    delete raw_;
    delete dirs_;
  }
  void SetUp() override { ASSERT_NE(dirs_, nullptr); }

  static fs::path* raw_;
  static testing::PreparedDirs* dirs_;
};

fs::path* TabularPlaygroundMay2022PrepareTest::raw_ = nullptr;
testing::PreparedDirs* TabularPlaygroundMay2022PrepareTest::dirs_ = nullptr;

TEST_F(TabularPlaygroundMay2022PrepareTest, WritesUpstreamsFilesAndColumns) {
  EXPECT_THAT(testing::FileNames(dirs_->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs_->private_dir), ElementsAre("gold_submission.csv", "test.csv"));

  const Table old_train = testing::ReadCsvOrFail(*raw_ / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs_->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs_->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs_->private_dir / "test.csv");
  const Table gold = testing::ReadCsvOrFail(dirs_->private_dir / "gold_submission.csv");
  const Table sample = testing::ReadCsvOrFail(dirs_->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "f_00", "f_07", "f_27"));
  EXPECT_THAT(gold.ColumnNames(), ElementsAre("id", "target"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "target"));

  EXPECT_EQ(train.num_rows(), 237u);
  for (const Table* table : {&test, &answers, &gold, &sample}) {
    EXPECT_EQ(table->num_rows(), static_cast<size_t>(kTestRows));
  }
  // Ids renumbered: 0.. through train, then on through test.
  EXPECT_EQ(Cells(train, "id"), Range(0, 237));
  EXPECT_EQ(Cells(answers, "id"), Range(237, kTestRows));
  EXPECT_EQ(Cells(test, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(gold, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(sample, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(gold, "target"), Cells(answers, "target"));
  EXPECT_EQ(Cells(test, "f_27"), Cells(answers, "f_27"));
  EXPECT_EQ(sample.Find("target")->dtype, Dtype::kFloat64);
  for (const Cell& cell : Cells(sample, "target")) EXPECT_EQ(cell, Cell(0.5));
}

TEST_F(TabularPlaygroundMay2022PrepareTest, RowsComeInTrainTestSplitOrder) {
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(kRawRows, options);
  ASSERT_TRUE(split.ok());
  const Table old_train = testing::ReadCsvOrFail(*raw_ / "train.csv");
  for (const auto& [path, indices] :
       {std::pair{dirs_->public_dir / "train.csv", &split->train_indices},
        std::pair{dirs_->private_dir / "test.csv", &split->test_indices}}) {
    SCOPED_TRACE(path.string());
    const Table part = testing::ReadCsvOrFail(path);
    ASSERT_EQ(part.num_rows(), indices->size());
    for (const std::string column : {"f_00", "f_07", "f_27", "target"}) {
      const std::vector<Cell> all = Cells(old_train, column);
      const std::vector<Cell> cells = Cells(part, column);
      for (size_t i = 0; i < cells.size(); ++i) {
        ASSERT_EQ(cells[i], all[(*indices)[i]]) << column << " row " << i;
      }
    }
  }
}

TEST_F(TabularPlaygroundMay2022PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const auto raw_before = testing::ReadTree(*raw_);
  absl::StatusOr<testing::PreparedDirs> again = testing::RunPreparer(kId, *raw_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(testing::ReadTree(again->public_dir), testing::ReadTree(dirs_->public_dir));
  EXPECT_EQ(testing::ReadTree(again->private_dir), testing::ReadTree(dirs_->private_dir));
  EXPECT_EQ(testing::ReadTree(*raw_), raw_before);
}

// Upstream's prepare() restated with pandas and scikit-learn, for each
// (raw, public, private) triple in argv.
constexpr char kReference[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

args = sys.argv[1:]
for raw, public, private in zip(args[0::3], args[1::3], args[2::3]):
    table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
    train, test = train_test_split(table, test_size=100_000, random_state=0)
    train.id = np.arange(len(train))
    test.id = np.arange(len(train), len(train) + len(test))
    gold = test[["id", "target"]].copy()
    sample = gold.copy()
    sample["target"] = 0.5
    train.to_csv(f"{public}/train.csv", index=False)
    test.to_csv(f"{private}/test.csv", index=False)
    test.drop(columns=["target"]).to_csv(f"{public}/test.csv", index=False)
    gold.to_csv(f"{private}/gold_submission.csv", index=False)
    sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(TabularPlaygroundMay2022PrepareReferenceTest, MatchesPandasByteForByte) {
  const std::vector<std::pair<int64_t, uint64_t>> cases = {{kTestRows + 1, 10},
                                                           {kTestRows + 1500, 12}};
  std::vector<fs::path> raws, references;
  std::vector<std::string> args;
  for (const auto& [rows, seed] : cases) {
    raws.push_back(MakeRaw(RawTrainCsv(rows, seed)));
    references.push_back(testing::NewTempDir("reference"));
    fs::create_directories(references.back() / "public");
    fs::create_directories(references.back() / "private");
    args.insert(args.end(), {raws.back().string(), (references.back() / "public").string(),
                             (references.back() / "private").string()});
  }
  const testing::CommandResult run = testing::RunPython(kReference, args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].first);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raws[i]);
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(references[i] / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(references[i] / "private"));
  }
}

TEST(TabularPlaygroundMay2022PrepareReferenceTest, RejectsBadRawData) {
  // No train.csv, or an empty one.
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("")).ok());
  // 100,000 rows or fewer: scikit-learn cannot hold out 100,000.
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(RawTrainCsv(kTestRows, 2))).status().message(),
              HasSubstr("test_size=100000 should be either positive and smaller than the number "
                        "of samples 100000"));
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(RawTrainCsv(500, 3))).status().message(),
              HasSubstr("number of samples 500"));
  // No label or no id column.
  std::string no_label = "id,f_00\n";
  std::string no_id = "f_00,target\n";
  for (int64_t i = 0; i <= kTestRows; ++i) {
    no_label += std::to_string(i) + ",0.5\n";
    no_id += "0.5," + std::to_string(i % 2) + "\n";
  }
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(no_label)).status().message(), HasSubstr("target"));
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(no_id)).status().message(), HasSubstr("`id`"));
}

}  // namespace
}  // namespace mlebench::prepare_test
