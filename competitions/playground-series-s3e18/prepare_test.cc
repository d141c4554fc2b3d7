#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
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
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's 31 descriptor columns; the last three hold counts.
// clang-format off
const std::vector<std::string> kFeatures = {
    "BertzCT", "Chi1", "Chi1n", "Chi1v", "Chi2n", "Chi2v", "Chi3v", "Chi4n", "EState_VSA1",
    "EState_VSA2", "ExactMolWt", "FpDensityMorgan1", "FpDensityMorgan2", "FpDensityMorgan3",
    "HallKierAlpha", "HeavyAtomMolWt", "Kappa3", "MaxAbsEStateIndex", "MinEStateIndex",
    "NumHeteroatoms", "PEOE_VSA10", "PEOE_VSA14", "PEOE_VSA6", "PEOE_VSA7", "PEOE_VSA8",
    "SMR_VSA10", "SMR_VSA5", "SlogP_VSA3", "VSA_EState9", "fr_COO", "fr_COO2"};
// clang-format on
const std::vector<std::string> kLabels = {"EC1", "EC2", "EC3", "EC4", "EC5", "EC6"};

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A train.csv with Kaggle's columns: int ids, float descriptors (with the
// odd missing value when `with_missing`), int counts and 0/1 labels.
std::string RawTrainCsv(int rows, uint64_t seed, bool with_missing = false) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.String("id");
  for (const std::string& name : Concat(kFeatures, kLabels)) csv.String(name);
  csv.EndRow();
  for (int i = 0; i < rows; ++i) {
    csv.Int(i);
    for (size_t f = 0; f < kFeatures.size(); ++f) {
      if (with_missing && rng.Bernoulli(0.02)) {
        csv.Missing();
      } else if (kFeatures[f] == "NumHeteroatoms" || kFeatures[f].rfind("fr_", 0) == 0) {
        csv.Int(static_cast<int64_t>(rng.UniformInt(12)));
      } else {
        csv.Float(std::round(rng.Normal(5, 20) * 1e6) / 1e6);
      }
    }
    for (size_t l = 0; l < kLabels.size(); ++l) csv.Int(rng.Bernoulli(0.4) ? 1 : 0);
    csv.EndRow();
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

TEST(PlaygroundS3e18PrepareTest, WritesUpstreamsFilesColumnsAndRows) {
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
  const std::vector<std::string> all = Concat(Concat({"id"}, kFeatures), kLabels);
  EXPECT_THAT(train.ColumnNames(), ElementsAreArray(all));
  EXPECT_THAT(answers.ColumnNames(), ElementsAreArray(all));
  EXPECT_THAT(test.ColumnNames(), ElementsAreArray(Concat({"id"}, kFeatures)));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "EC1", "EC2"));
  EXPECT_EQ(test.num_rows(), 34u);  // ceil(0.1 * 333)
  EXPECT_EQ(train.num_rows(), 299u);

  // Rows in train_test_split order, values unchanged.
  absl::StatusOr<Table> old_train = ReadCsvString(train_csv, "train.csv");
  ASSERT_TRUE(old_train.ok());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  for (const std::string& column : all) {
    const std::vector<Cell> old_cells = Cells(*old_train, column);
    for (size_t i = 0; i < split->train_indices.size(); ++i) {
      EXPECT_EQ(Cells(train, column)[i], old_cells[split->train_indices[i]]) << column;
    }
    for (size_t i = 0; i < split->test_indices.size(); ++i) {
      EXPECT_EQ(Cells(answers, column)[i], old_cells[split->test_indices[i]]) << column;
    }
  }
  EXPECT_EQ(Cells(test, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(sample, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(sample, "EC1"), std::vector<Cell>(34, Cell(0.5)));
  EXPECT_EQ(Cells(sample, "EC2"), std::vector<Cell>(34, Cell(0.5)));
  const std::vector<Cell> train_ids = Cells(train, "id");
  const std::set<Cell> train_id_set(train_ids.begin(), train_ids.end());
  for (const Cell& id : Cells(test, "id")) EXPECT_EQ(train_id_set.count(id), 0u);
}

TEST(PlaygroundS3e18PrepareTest, IsDeterministicAndLeavesRawAlone) {
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
sample = test[["id"]].copy()
sample["EC1"] = 0.5
sample["EC2"] = 0.5
sample.to_csv(f"{public}/sample_submission.csv", index=False)
test.to_csv(f"{private}/test.csv", index=False)
train.to_csv(f"{public}/train.csv", index=False)
public_test = test.drop(columns=["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"])
public_test.to_csv(f"{public}/test.csv", index=False)
)py";

TEST(PlaygroundS3e18PrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed, missing] : std::vector<std::tuple<int, uint64_t, bool>>{
           {2, 10, false}, {57, 11, true}, {3000, 12, false}, {1001, 13, true}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainCsv(rows, seed, missing));
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

TEST(PlaygroundS3e18PrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  const fs::path not_csv = testing::NewTempDir("not_csv");
  ASSERT_TRUE(WriteStringToFile(not_csv / "train.csv", std::string("id\0x\n", 5)).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, not_csv).ok());
  // A label column missing (the public test cannot drop it), or an extra
  // column (upstream's column-count checks).
  absl::StatusOr<Table> good = ReadCsvString(RawTrainCsv(30, 3), "train.csv");
  ASSERT_TRUE(good.ok());
  Table no_ec6 = *good;
  no_ec6.mutable_columns().pop_back();
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(WriteCsvString(no_ec6))).status().message(),
              HasSubstr("EC6"));
  Table extra = *good;
  extra.mutable_columns().push_back(
      Column{"extra", Dtype::kInt64, std::vector<Cell>(30, Cell(int64_t{1}))});
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(WriteCsvString(extra))).status().message(),
              HasSubstr("should have 32 columns"));
  // Too few rows to split.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(RawTrainCsv(1, 4))).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
