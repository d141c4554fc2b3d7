#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
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
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A raw train.csv shaped like Kaggle's: bools with holes (object columns),
// floats with holes, names that need quoting.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv;
  csv.Row({"PassengerId", "HomePlanet", "CryoSleep", "Cabin", "Destination", "Age", "VIP",
           "RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck", "Name", "Transported"});
  const std::vector<std::string> planets = {"Earth", "Europa", "Mars"};
  const std::vector<std::string> destinations = {"TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"};
  const std::vector<std::string> names = {"Maham Ofracculy", "Juanna Vines", "Altark Susent",
                                          "Smith, \"Jr\"", "Sandie Hinetthews"};
  for (int i = 0; i < rows; ++i) {
    csv.String(absl::StrFormat("%04d_%02d", i / 2 + 1, i % 2 + 1));
    rng.Bernoulli(0.05) ? csv.Missing() : csv.String(rng.Choice(planets));
    rng.Bernoulli(0.05) ? csv.Missing() : csv.Bool(rng.Bernoulli(0.3));
    rng.Bernoulli(0.05) ? csv.Missing()
                        : csv.String(absl::StrFormat("%c/%d/%c", "ABCDEFG"[rng.UniformInt(7)],
                                                     rng.UniformInt(0, 1800), "PS"[rng.UniformInt(2)]));
    rng.Bernoulli(0.05) ? csv.Missing() : csv.String(rng.Choice(destinations));
    rng.Bernoulli(0.05) ? csv.Missing() : csv.Float(rng.Bernoulli(0.1) ? 0.5 : rng.UniformInt(0, 79));
    rng.Bernoulli(0.05) ? csv.Missing() : csv.Bool(rng.Bernoulli(0.02));
    for (int spend = 0; spend < 5; ++spend) {
      rng.Bernoulli(0.05) ? csv.Missing()
                          : csv.Float(rng.Bernoulli(0.6) ? 0.0 : rng.UniformInt(1, 20000));
    }
    rng.Bernoulli(0.05) ? csv.Missing() : csv.String(rng.Choice(names));
    csv.Bool(rng.Bernoulli(0.5)).EndRow();
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

std::vector<Cell> CellsAt(const std::vector<Cell>& cells, const std::vector<int64_t>& rows) {
  std::vector<Cell> out;
  for (int64_t row : rows) out.push_back(cells[row]);
  return out;
}

TEST(SpaceshipTitanicPrepareTest, WritesUpstreamsFilesAndColumns) {
  const fs::path raw = MakeRaw(RawTrainCsv(237, 1));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  std::map<std::string, std::string> private_files = testing::ReadTree(dirs->private_dir);
  std::vector<std::string> public_names, private_names;
  for (const auto& [name, bytes] : public_files) public_names.push_back(name);
  for (const auto& [name, bytes] : private_files) private_names.push_back(name);
  EXPECT_THAT(public_names, ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(private_names, ElementsAre("test.csv"));

  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  std::vector<std::string> without_label = old_train.ColumnNames();
  without_label.pop_back();
  EXPECT_EQ(test.ColumnNames(), without_label);
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("PassengerId", "Transported"));

  // n_test = ceil(0.1 * 237) = 24.
  EXPECT_EQ(answers.num_rows(), 24u);
  EXPECT_EQ(test.num_rows(), 24u);
  EXPECT_EQ(sample.num_rows(), 24u);
  EXPECT_EQ(train.num_rows(), 213u);
  for (const Cell& cell : Cells(sample, "Transported")) EXPECT_EQ(cell, Cell(false));
  EXPECT_EQ(Cells(sample, "PassengerId"), Cells(answers, "PassengerId"));
  EXPECT_EQ(Cells(test, "PassengerId"), Cells(answers, "PassengerId"));
}

TEST(SpaceshipTitanicPrepareTest, RowsComeInTrainTestSplitOrder) {
  const int rows = 500;
  const fs::path raw = MakeRaw(RawTrainCsv(rows, 2));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell> ids = Cells(testing::ReadCsvOrFail(raw / "train.csv"), "PassengerId");
  const std::vector<Cell> train_ids = Cells(testing::ReadCsvOrFail(dirs->public_dir / "train.csv"), "PassengerId");
  const std::vector<Cell> test_ids = Cells(testing::ReadCsvOrFail(dirs->private_dir / "test.csv"), "PassengerId");
  EXPECT_EQ(train_ids, CellsAt(ids, split->train_indices));
  EXPECT_EQ(test_ids, CellsAt(ids, split->test_indices));
  std::set<Cell> train_set(train_ids.begin(), train_ids.end());
  for (const Cell& id : test_ids) EXPECT_EQ(train_set.count(id), 0u);
}

TEST(SpaceshipTitanicPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(300, 3));
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
sample = test[["PassengerId", "Transported"]].copy()
sample["Transported"] = False
sample.to_csv(f"{public}/sample_submission.csv", index=False)
test.to_csv(f"{private}/test.csv", index=False)
train.to_csv(f"{public}/train.csv", index=False)
test.drop(columns=["Transported"]).to_csv(f"{public}/test.csv", index=False)
)py";

TEST(SpaceshipTitanicPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{
           {2, 10}, {11, 11}, {237, 12}, {1000, 13}, {8693, 14}}) {
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

TEST(SpaceshipTitanicPrepareTest, RejectsBadRawData) {
  // No train.csv.
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Too few rows for a non-empty train set.
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(RawTrainCsv(1, 1))).status().message(),
              HasSubstr("train set will be empty"));
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("")).ok());
  // No label column: an error, and nothing written.
  const fs::path raw = MakeRaw("PassengerId,Age\n0001_01,3.0\n0002_01,4.0\n0003_01,5.0\n");
  EXPECT_THAT(testing::RunPreparer(kId, raw).status().message(), HasSubstr("Transported"));
}

}  // namespace
}  // namespace mlebench::prepare_test
