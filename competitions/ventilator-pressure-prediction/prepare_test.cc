#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
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
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A raw train.csv of `breaths` breaths of 1 to 5 steps each, breath ids
// increasing with gaps (or shuffled), floats with awkward digits.
std::string RandomTrainCsv(int breaths, uint64_t seed, bool shuffled = false) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"id", "breath_id", "R", "C", "time_step", "u_in", "u_out", "pressure"});
  int64_t id = 1, breath_id = 0;
  for (int b = 0; b < breaths; ++b) {
    breath_id = shuffled ? rng.UniformInt(int64_t{1}, int64_t{breaths / 2 + 1})
                         : breath_id + rng.UniformInt(int64_t{1}, int64_t{3});
    const int64_t steps = rng.UniformInt(int64_t{1}, int64_t{5});
    for (int64_t s = 0; s < steps; ++s) {
      csv.Int(id++).Int(breath_id).Int(rng.Bernoulli(0.5) ? 20 : 5).Int(50);
      csv.Float(s * 0.0336 + rng.Uniform() * 1e-3);
      if (rng.Bernoulli(0.2)) {
        csv.Int(rng.UniformInt(int64_t{0}, int64_t{100}));  // an integral spelling
      } else {
        csv.Float(rng.Uniform(0, 100) * (rng.Bernoulli(0.1) ? 1e-7 : 1.0));
      }
      csv.Int(s > 2 ? 1 : 0).Float(rng.Normal(15, 8)).EndRow();
    }
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  return raw;
}

TEST(VentilatorPrepareTest, SplitsWholeBreathsAndRenumbers) {
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(RandomTrainCsv(60, 1)));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "breath_id", "R", "C", "time_step", "u_in",
                                               "u_out", "pressure"));
  EXPECT_EQ(answers.ColumnNames(), train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(),
              ElementsAre("id", "breath_id", "R", "C", "time_step", "u_in", "u_out"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "pressure"));
  EXPECT_EQ(test.num_rows(), answers.num_rows());
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  std::set<Cell> train_breaths(train.Find("breath_id")->cells.begin(),
                               train.Find("breath_id")->cells.end());
  std::set<Cell> test_breaths(answers.Find("breath_id")->cells.begin(),
                              answers.Find("breath_id")->cells.end());
  EXPECT_EQ(test_breaths.size(), 6u);  // ceil(0.1 * 60) breaths
  EXPECT_EQ(train_breaths.size(), 54u);
  for (const Cell& b : test_breaths) EXPECT_FALSE(train_breaths.contains(b));
  for (const Table* table : {&train, &answers, &sample}) {
    for (size_t row = 0; row < table->num_rows(); ++row) {
      EXPECT_EQ(table->Find("id")->cells[row], Cell(int64_t(row + 1)));
    }
  }
  for (const Cell& cell : sample.Find("pressure")->cells) EXPECT_EQ(cell, Cell(int64_t{0}));
}

TEST(VentilatorPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomTrainCsv(40, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
dtypes = {"id": "int32", "breath_id": "int32", "R": "int8", "C": "int8", "time_step": "float64",
          "u_in": "float64", "u_out": "int8", "pressure": "float64"}
old = pd.read_csv(raw / "train.csv", dtype=dtypes, float_precision="round_trip")
groups = [df.index.tolist() for _, df in old.groupby("breath_id")]
train_idx, test_idx = train_test_split(groups, test_size=0.1, random_state=0)
train = old.loc[[i for g in train_idx for i in g]]
test = old.loc[[i for g in test_idx for i in g]]
train["id"] = range(1, len(train) + 1)
test["id"] = range(1, len(test) + 1)
public_test = test.drop(columns=["pressure"])
sample = public_test.copy()[["id"]]
sample["pressure"] = 0
train.to_csv(public / "train.csv", index=False, float_format="%.10g")
public_test.to_csv(public / "test.csv", index=False, float_format="%.10g")
sample.to_csv(public / "sample_submission.csv", index=False, float_format="%.10g")
test.to_csv(private / "test.csv", index=False, float_format="%.10g")
)py";

TEST(VentilatorPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [breaths, seed, shuffled] :
       {std::tuple{2, 10, false}, std::tuple{97, 11, true}, std::tuple{3000, 12, false}}) {
    SCOPED_TRACE(breaths);
    const fs::path raw = MakeRaw(RandomTrainCsv(breaths, seed, shuffled));
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

absl::Status PrepareStatus(const std::string& train_csv) {
  return testing::RunPreparer(kId, MakeRaw(train_csv)).status();
}

TEST(VentilatorPrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  const std::string header = "id,breath_id,R,C,time_step,u_in,u_out,pressure";
  std::string rows;
  for (int i = 1; i <= 20; ++i) rows += absl::StrCat(i, ",", i, ",5,10,0.0,1.5,0,6.0\n");
  EXPECT_TRUE(PrepareStatus(header + "\n" + rows).ok());
  // An extra column: upstream's column-count asserts.
  std::string extra;
  for (int i = 1; i <= 20; ++i) extra += absl::StrCat(i, ",", i, ",5,10,0.0,1.5,0,6.0,x\n");
  EXPECT_THAT(PrepareStatus(header + ",note\n" + extra).message(), HasSubstr("columns"));
  // No pressure; non-integer or out-of-range integer columns; text floats.
  EXPECT_FALSE(PrepareStatus("id,breath_id\n1,1\n2,2\n").ok());
  EXPECT_FALSE(PrepareStatus(header + "\n" + rows + "21,21,5.5,10,0.0,1.5,0,6.0\n").ok());
  EXPECT_FALSE(PrepareStatus(header + "\n" + rows + "21,21,500,10,0.0,1.5,0,6.0\n").ok());
  EXPECT_FALSE(PrepareStatus(header + "\n" + rows + "21,,5,10,0.0,1.5,0,6.0\n").ok());
  EXPECT_FALSE(PrepareStatus(header + "\n" + rows + "21,21,5,10,0.0,fast,0,6.0\n").ok());
  EXPECT_FALSE(PrepareStatus(header + "\n" + rows + "21,3000000000,5,10,0.0,1,0,6.0\n").ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
