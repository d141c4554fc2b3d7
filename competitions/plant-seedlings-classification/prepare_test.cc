#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const std::vector<std::string> kSpecies = {"Black-grass", "Charlock", "Common Chickweed", "Fat Hen",
                                           "Sugar beet"};

// Kaggle's layout: train/<species>/<9 hex digits>.png, plus a test/ folder
// and sample_submission.csv that upstream does not read. Each species
// folder also holds a file that is not a PNG, which upstream skips.
fs::path MakeRaw(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  for (const std::string& species : kSpecies) {
    fs::create_directories(raw / "train" / species);
    EXPECT_TRUE(WriteStringToFile(raw / "train" / species / "notes.txt", "skip me").ok());
  }
  for (int i = 0; i < count; ++i) {
    EXPECT_TRUE(WriteStringToFile(raw / "train" / rng.Choice(kSpecies) / (rng.Hex(9) + ".png"),
                                  "PNG" + rng.Hex(20))
                    .ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train" / "README.png", "a file, not a folder").ok());
  fs::create_directories(raw / "test");
  EXPECT_TRUE(WriteStringToFile(raw / "test" / "abc.png", "PNG").ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "sample_submission.csv", "file,species\nabc.png,Maize\n").ok());
  return raw;
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(PlantSeedlingsPrepareTest, SplitsImagesIntoFolders) {
  const fs::path raw = MakeRaw(100, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("file", "species"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("file", "species"));
  // sklearn's ceil(0.14 * 100): 0.14 * 100 is 14.000000000000002 in floats.
  ASSERT_EQ(answers.num_rows(), 15u);
  EXPECT_EQ(sample.Find("file")->cells, answers.Find("file")->cells);
  size_t train_images = 0;
  for (const auto& [name, bytes] : public_files) train_images += name.starts_with("train/");
  EXPECT_EQ(train_images, 85u);
  EXPECT_EQ(public_files.size(), 1u + 85u + 15u);
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string file = std::get<std::string>(answers.Find("file")->cells[row]);
    const std::string species = std::get<std::string>(answers.Find("species")->cells[row]);
    EXPECT_EQ(sample.Find("species")->cells[row], Cell(std::string("Sugar beet")));
    EXPECT_EQ(public_files.at("test/" + file), testing::ReadTree(raw / "train" / species).at(file));
  }
}

TEST(PlantSeedlingsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(60, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import os, shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
train_dir = raw / "train"
data = []
for label in sorted(os.listdir(train_dir)):
    if os.path.isdir(train_dir / label):
        for name in sorted(os.listdir(train_dir / label)):
            if name.endswith(".png"):
                data.append({"file": name, "species": label})
old = pd.DataFrame(data)
train, test = train_test_split(old, test_size=0.14, random_state=0)
sample = test.copy()
sample["species"] = "Sugar beet"
test.to_csv(private / "answers.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for _, r in train.iterrows():
    (public / "train" / r["species"]).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(train_dir / r["species"] / r["file"], public / "train" / r["species"] / r["file"])
(public / "test").mkdir(exist_ok=True)
for _, r in test.iterrows():
    shutil.copyfile(train_dir / r["species"] / r["file"], public / "test" / r["file"])
)py";

TEST(PlantSeedlingsPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [count, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {97, 11}, {500, 12}}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(count, seed);
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

TEST(PlantSeedlingsPrepareTest, RunsUpstreamsChecks) {
  // The same file name under two species: in both splits, or twice in test.
  fs::path raw = MakeRaw(0, 3);
  for (int i = 0; i < 30; ++i) {
    const std::string name = "dup" + std::to_string(i) + ".png";
    ASSERT_TRUE(WriteStringToFile(raw / "train" / "Charlock" / name, "a").ok());
    ASSERT_TRUE(WriteStringToFile(raw / "train" / "Fat Hen" / name, "b").ok());
  }
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("check failed"));
  // Hidden files and species folders, which upstream's globs do not count.
  raw = MakeRaw(20, 4);
  ASSERT_TRUE(WriteStringToFile(raw / "train" / "Charlock" / ".hidden.png", "a").ok());
  fs::create_directories(raw / "train" / ".cache");
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        WriteStringToFile(raw / "train" / ".cache" / (std::to_string(i) + ".png"), "a").ok());
  }
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("check failed"));
}

TEST(PlantSeedlingsPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  EXPECT_THAT(PrepareStatus(MakeRaw(0, 5)).message(), HasSubstr("no <species>/*.png"));
  // One image cannot be split.
  EXPECT_FALSE(PrepareStatus(MakeRaw(1, 6)).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
