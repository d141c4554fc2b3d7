#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr const char* kDataCsvs[] = {
    "structures.csv", "dipole_moments.csv", "magnetic_shielding_tensors.csv",
    "mulliken_charges.csv", "potential_energy.csv", "scalar_coupling_contributions.csv"};

// The synthetic raw download (competitions/champs-scalar-coupling:raw) for `seed`.
fs::path MakeRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::set<std::string> Molecules(const Table& table) {
  std::set<std::string> names;
  for (const Cell& cell : table.Find("molecule_name")->cells) names.insert(std::get<std::string>(cell));
  return names;
}

TEST(ChampsPrepareTest, SplitsByMolecule) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));
  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(answers.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(),
              ElementsAre("id", "molecule_name", "atom_index_0", "atom_index_1", "type"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "scalar_coupling_constant"));
  EXPECT_EQ(train.num_rows() + answers.num_rows(), old_train.num_rows());
  EXPECT_EQ(test.num_rows(), answers.num_rows());
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  const std::set<std::string> train_molecules = Molecules(train);
  const std::set<std::string> test_molecules = Molecules(answers);
  EXPECT_EQ(test_molecules.size(), (Molecules(old_train).size() + 9) / 10);  // ceil(10%)
  for (const std::string& name : test_molecules) EXPECT_FALSE(train_molecules.contains(name));
  for (const char* file : kDataCsvs) {
    SCOPED_TRACE(file);
    EXPECT_EQ(Molecules(testing::ReadCsvOrFail(dirs->public_dir / file)), train_molecules);
  }
  std::set<std::string> xyz;
  for (const std::string& name : testing::FileNames(dirs->public_dir / "structures")) {
    xyz.insert(name.substr(0, name.size() - 4));
  }
  EXPECT_EQ(xyz, train_molecules);
  for (const Cell& cell : sample.Find("scalar_coupling_constant")->cells) {
    EXPECT_EQ(cell, Cell(int64_t{0}));
  }
}

TEST(ChampsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
read = lambda name: pd.read_csv(raw / name, float_precision="round_trip")
old = read("train.csv")
train_groups, test_groups = train_test_split(list(old.groupby("molecule_name")), test_size=0.1,
                                             random_state=0)
train = pd.concat([g for _, g in train_groups])
answers = pd.concat([g for _, g in test_groups])
test = answers.drop(columns=["scalar_coupling_constant"])
sample = test[["id"]].copy()
sample["scalar_coupling_constant"] = 0
answers.to_csv(private / "answers.csv", index=False)
train.to_csv(public / "train.csv", index=False)
test.to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for name in ["structures", "dipole_moments", "magnetic_shielding_tensors", "mulliken_charges",
             "potential_energy", "scalar_coupling_contributions"]:
    df = read(f"{name}.csv")
    df[df["molecule_name"].isin(train["molecule_name"])].to_csv(public / f"{name}.csv", index=False)
(public / "structures").mkdir()
for m in train["molecule_name"].unique():
    shutil.copyfile(raw / "structures" / f"{m}.xyz", public / "structures" / f"{m}.xyz")
)py";

TEST(ChampsPrepareTest, OutputsMatchPandasByteForByte) {
  for (uint64_t seed : {3, 4}) {
    SCOPED_TRACE(seed);
    const fs::path raw = MakeRaw(seed);
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

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(ChampsPrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A train molecule missing from a per-molecule CSV: upstream's assert.
  fs::path raw = MakeRaw(6);
  const Table train = testing::ReadCsvOrFail(raw / "train.csv");
  const std::string first = std::get<std::string>(train.Find("molecule_name")->cells[0]);
  ASSERT_TRUE(WriteStringToFile(raw / "potential_energy.csv",
                                "molecule_name,potential_energy\n" + first + ",-40.5\n")
                  .ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Filtered potential_energy.csv"));
  // A missing per-molecule CSV or .xyz file.
  raw = MakeRaw(6);
  fs::remove(raw / "mulliken_charges.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(6);
  for (const Cell& cell : train.Find("molecule_name")->cells) {
    fs::remove(raw / "structures" / (std::get<std::string>(cell) + ".xyz"));
  }
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Ids shared by two molecules; an extra column; names reaching outside.
  const std::string header = "id,molecule_name,atom_index_0,atom_index_1,type,scalar_coupling_constant\n";
  std::string rows;
  for (int i = 0; i < 20; ++i) rows += absl::StrCat(i % 2, ",m", i, ",1,0,1JHC,80.5\n");
  raw = MakeRaw(6);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + rows).ok());
  for (const char* file : kDataCsvs) {
    std::string csv = "molecule_name,x\n";
    for (int i = 0; i < 20; ++i) csv += absl::StrCat("m", i, ",1\n");
    ASSERT_TRUE(WriteStringToFile(raw / file, csv).ok());
  }
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(WriteStringToFile(raw / "structures" / absl::StrCat("m", i, ".xyz"), "1\n\nH 0 0 0\n").ok());
  }
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("same id"));
  std::string distinct;
  for (int i = 0; i < 20; ++i) distinct += absl::StrCat(i, ",m", i, ",1,0,1JHC,80.5\n");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + distinct).ok());
  EXPECT_TRUE(PrepareStatus(raw).ok());
  std::string extra;
  for (int i = 0; i < 20; ++i) extra += absl::StrCat(i, ",m", i, ",1,0,1JHC,80.5,x\n");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "id,molecule_name,atom_index_0,atom_index_1,"
                                                   "type,scalar_coupling_constant,note\n" + extra)
                  .ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("columns"));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + distinct + "20,../x,1,0,1JHC,1\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
