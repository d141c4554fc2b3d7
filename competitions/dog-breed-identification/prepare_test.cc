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
#include "competitions/dog-breed-identification/classes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using dog_breed_identification::Breeds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawDog {
  std::string id;  // 32 hex digits
  std::string breed;
  std::string bytes;
};

std::vector<RawDog> RandomDogs(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawDog> dogs;
  for (int i = 0; i < count; ++i) {
    dogs.push_back({"d" + rng.Hex(31), rng.Choice(Breeds()), "JPEG" + rng.Hex(40)});
  }
  return dogs;
}

// Kaggle's layout once extracted: labels.csv (id, breed) and train/<id>.jpg
// (test/ and sample_submission.csv are not read by upstream).
fs::path MakeRaw(const std::vector<RawDog>& dogs) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder csv;
  csv.Row({"id", "breed"});
  for (const RawDog& dog : dogs) {
    csv.String(dog.id).String(dog.breed).EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (dog.id + ".jpg"), dog.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "labels.csv", csv.text()).ok());
  return raw;
}

std::vector<std::string> Ids(const Table& table) {
  std::vector<std::string> ids;
  const Column* c = table.Find("id");
  EXPECT_NE(c, nullptr);
  if (c == nullptr) return ids;
  for (const Cell& cell : c->cells) ids.push_back(std::get<std::string>(cell));
  return ids;
}

TEST(DogBreedPrepareTest, WritesUpstreamsFilesColumnsRowsAndImages) {
  const std::vector<RawDog> dogs = RandomDogs(120, 1);
  const fs::path raw = MakeRaw(dogs);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_EQ(public_files.size(), 2u + 120u);  // labels.csv, sample_submission.csv, images
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ::testing::SizeIs(1));
  EXPECT_TRUE(fs::is_regular_file(dirs->private_dir / "test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "labels.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "breed"));
  std::vector<std::string> id_and_breeds = {"id"};
  id_and_breeds.insert(id_and_breeds.end(), Breeds().begin(), Breeds().end());
  EXPECT_EQ(answers.ColumnNames(), id_and_breeds);
  EXPECT_EQ(sample.ColumnNames(), id_and_breeds);
  EXPECT_EQ(answers.num_rows(), 12u);  // ceil(0.1 * 120)
  EXPECT_EQ(train.num_rows(), 108u);
  EXPECT_EQ(Ids(sample), Ids(answers));
  for (const std::string& breed : Breeds()) {
    for (const Cell& p : sample.Find(breed)->cells) EXPECT_EQ(p, Cell(1.0 / 120));
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(dogs.size(), options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawDog& dog = dogs[split->train_indices[i]];
    EXPECT_EQ(Ids(train)[i], dog.id);
    EXPECT_EQ(train.Find("breed")->cells[i], Cell(dog.breed));
    EXPECT_EQ(public_files.at("train/" + dog.id + ".jpg"), dog.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawDog& dog = dogs[split->test_indices[i]];
    EXPECT_EQ(Ids(answers)[i], dog.id);
    for (const std::string& breed : Breeds()) {
      EXPECT_EQ(answers.Find(breed)->cells[i], Cell(int64_t{breed == dog.breed ? 1 : 0}));
    }
    EXPECT_EQ(public_files.at("test/" + dog.id + ".jpg"), dog.bytes);
  }
}

TEST(DogBreedPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomDogs(40, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn (df_to_one_hot
// written out; the image copies compared as files).
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
breeds = sys.argv[4].split(",")
old = pd.read_csv(raw / "labels.csv")
train, test = train_test_split(old, test_size=0.1, random_state=0)
one_hot = pd.DataFrame(0, index=test.index, columns=["id"] + breeds)
one_hot["id"] = test["id"]
for i, row in test.iterrows():
    one_hot.loc[i, row["breed"]] = 1
train.to_csv(public / "labels.csv", index=False)
one_hot.to_csv(private / "test.csv", index=False)
for folder, ids in (("train", train["id"]), ("test", one_hot["id"])):
    (public / folder).mkdir()
    for i in ids:
        shutil.copyfile(raw / "train" / f"{i}.jpg", public / folder / f"{i}.jpg")
sample = one_hot.copy()
for col in sample.columns[1:]:
    sample[col] = sample[col].astype("float64")
sample.iloc[:, 1:] = 1 / 120
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(DogBreedPrepareTest, MatchesPandasByteForByte) {
  std::string breeds;
  for (const std::string& breed : Breeds()) breeds += (breeds.empty() ? "" : ",") + breed;
  const std::vector<std::pair<int, uint64_t>> sizes_and_seeds = {{2, 10}, {97, 11}, {250, 12}};
  for (const auto& [rows, seed] : sizes_and_seeds) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomDogs(rows, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run =
        testing::RunPython(kReference, {raw.string(), (reference / "public").string(),
                                        (reference / "private").string(), breeds});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(DogBreedPrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  // A repeated id: fewer files than rows.
  std::vector<RawDog> dogs = RandomDogs(30, 4);
  for (RawDog& dog : dogs) dog.id = dogs[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(dogs)).message(), HasSubstr("one image per row"));
  // No labels.csv.
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // An image listed in labels.csv but absent from train/.
  dogs = RandomDogs(20, 5);
  const fs::path missing = MakeRaw(dogs);
  fs::remove(missing / "train" / (dogs[3].id + ".jpg"));
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr("no file train/" + dogs[3].id));
  // A breed that is not one of the 120.
  dogs = RandomDogs(20, 6);
  for (RawDog& dog : dogs) dog.breed = "wolf";
  EXPECT_FALSE(PrepareStatus(MakeRaw(dogs)).ok());
  // No breed column.
  const fs::path no_breed = MakeRaw(RandomDogs(10, 7));
  ASSERT_TRUE(WriteStringToFile(no_breed / "labels.csv", "id\na\nb\nc\nd\n").ok());
  EXPECT_FALSE(PrepareStatus(no_breed).ok());
  // Ids that are not plain file names never reach the file system.
  for (const std::string bad_id : {"../escape", "sub/dir", ".."}) {
    SCOPED_TRACE(bad_id);
    const fs::path raw = testing::NewTempDir("bad_id");
    std::string csv = "id,breed\n";
    for (int i = 0; i < 10; ++i) csv += bad_id + ",pug\n";
    ASSERT_TRUE(WriteStringToFile(raw / "labels.csv", csv).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be an integer or a file name"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
