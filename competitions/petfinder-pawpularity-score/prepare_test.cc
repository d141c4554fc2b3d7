#include <filesystem>
#include <map>
#include <set>
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
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
const std::vector<std::string> kFeatures = {"Subject Focus", "Eyes",   "Face",      "Near",
                                            "Action",        "Accessory", "Group", "Collage",
                                            "Human",         "Occlusion", "Info",  "Blur"};

struct RawPet {
  std::string id;
  std::vector<int> features;
  int pawpularity;
  std::string bytes;
};

std::vector<RawPet> RandomPets(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawPet> pets;
  for (int i = 0; i < count; ++i) {
    RawPet pet{rng.Hex(32), {}, static_cast<int>(rng.UniformInt(1, 100)), "JPEG" + rng.Hex(40)};
    for (size_t k = 0; k < kFeatures.size(); ++k) pet.features.push_back(rng.Bernoulli(0.4));
    pets.push_back(pet);
  }
  return pets;
}

// Kaggle's layout: train.csv and train/<Id>.jpg.
fs::path MakeRaw(const std::vector<RawPet>& pets) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder csv;
  csv.String("Id");
  for (const std::string& name : kFeatures) csv.String(name);
  csv.String("Pawpularity").EndRow();
  for (const RawPet& pet : pets) {
    csv.String(pet.id);
    for (int f : pet.features) csv.Int(f);
    csv.Int(pet.pawpularity).EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (pet.id + ".jpg"), pet.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  return raw;
}

TEST(PetfinderPrepareTest, SplitsAndCopies) {
  const std::vector<RawPet> pets = RandomPets(50, 1);
  const fs::path raw = MakeRaw(pets);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));
  EXPECT_EQ(public_files.size(), 3u + 50u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  std::vector<std::string> columns = {"Id"};
  columns.insert(columns.end(), kFeatures.begin(), kFeatures.end());
  EXPECT_EQ(test.ColumnNames(), columns);
  columns.push_back("Pawpularity");
  EXPECT_EQ(train.ColumnNames(), columns);
  EXPECT_EQ(answers.ColumnNames(), columns);
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("Id", "Pawpularity"));
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);  // ceil(0.1 * 50)
  ASSERT_EQ(test.num_rows(), 5u);
  ASSERT_EQ(sample.num_rows(), 5u);
  // numpy: np.random.default_rng(0).uniform(1, 100, 5).round(2).
  EXPECT_THAT(public_files.at("sample_submission.csv"), StartsWith("Id,Pawpularity\n"));
  EXPECT_EQ(sample.Find("Pawpularity")->cells[0], Cell(64.06));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawPet& pet = pets[split->train_indices[i]];
    EXPECT_EQ(train.Find("Id")->cells[i], Cell(pet.id));
    EXPECT_EQ(train.Find("Pawpularity")->cells[i], Cell(int64_t{pet.pawpularity}));
    EXPECT_EQ(public_files.at("train/" + pet.id + ".jpg"), pet.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawPet& pet = pets[split->test_indices[i]];
    EXPECT_EQ(answers.Find("Id")->cells[i], Cell(pet.id));
    EXPECT_EQ(test.Find("Id")->cells[i], Cell(pet.id));
    EXPECT_EQ(sample.Find("Id")->cells[i], Cell(pet.id));
    EXPECT_EQ(answers.Find("Pawpularity")->cells[i], Cell(int64_t{pet.pawpularity}));
    EXPECT_EQ(public_files.at("test/" + pet.id + ".jpg"), pet.bytes);
    EXPECT_FALSE(public_files.contains("train/" + pet.id + ".jpg"));
  }
}

TEST(PetfinderPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomPets(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with numpy, pandas and scikit-learn, images
// included. The sample submission's scores come from numpy's own PCG64, so
// this also checks our port of default_rng draw for draw.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train, test = train_test_split(old_train, test_size=0.1, random_state=0)
public_test = test.drop(columns=["Pawpularity"])
sample = test[["Id", "Pawpularity"]].copy()
sample["Pawpularity"] = np.random.default_rng(0).uniform(1, 100, len(sample)).round(2)
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
public_test.to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for split, frame in (("train", train), ("test", test)):
    (public / split).mkdir()
    for i in frame["Id"]:
        shutil.copy(raw / "train" / f"{i}.jpg", public / split / f"{i}.jpg")
)py";

TEST(PetfinderPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [count, seed] : {std::pair{2, 10}, std::pair{97, 11}, std::pair{3000, 12}}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(RandomPets(count, seed));
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

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(PetfinderPrepareTest, RunsUpstreamsChecks) {
  // A pet listed twice: in both splits, or twice in one.
  std::vector<RawPet> pets = RandomPets(40, 3);
  for (RawPet& pet : pets) pet.id = pets[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(pets)).message(), HasSubstr("should not overlap"));
  // Pawpularity not the last column.
  fs::path raw = MakeRaw(RandomPets(10, 4));
  std::string csv = "Id,Pawpularity,Eyes\n";
  for (const RawPet& pet : RandomPets(10, 4)) csv += pet.id + ",5,1\n";
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("minus the target column"));
}

TEST(PetfinderPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomPets(10, 6));
  fs::remove(raw / "train" / (RandomPets(10, 6)[3].id + ".jpg"));
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomPets(10, 6));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "Id,Eyes\na,1\nb,0\nc,1\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());  // no Pawpularity
  // Ids that are not text naming a file in train/ never reach the file system.
  for (const std::string bad : {"../../escape", "ab/x", "", "7"}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomPets(10, 7));
    std::string csv = "Id,Eyes,Pawpularity\n";
    for (int i = 0; i < 10; ++i) csv += (i == 4 ? bad : "a" + std::to_string(i)) + ",1,50\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
