#include <filesystem>
#include <map>
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
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawImage {
  std::string image_id;  // "Train_<i>"
  int condition;         // the column holding 1
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({"Train_" + std::to_string(i), static_cast<int>(rng.UniformInt(4)),
                      "JPEG" + rng.Hex(40)});
  }
  return images;
}

// Kaggle's layout: train.csv (one-hot labels) and images/<image_id>.jpg.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "images");
  CsvTextBuilder csv;
  csv.Row({"image_id", "healthy", "multiple_diseases", "rust", "scab"});
  for (const RawImage& image : images) {
    csv.String(image.image_id);
    for (int c = 0; c < 4; ++c) csv.Int(c == image.condition ? 1 : 0);
    csv.EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "images" / (image.image_id + ".jpg"), image.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(PlantPathologyPrepareTest, SplitsRenamesAndCopies) {
  const std::vector<RawImage> images = RandomImages(50, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));
  EXPECT_EQ(public_files.size(), 3u + 50u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const auto columns = ElementsAre("image_id", "healthy", "multiple_diseases", "rust", "scab");
  EXPECT_THAT(train.ColumnNames(), columns);
  EXPECT_THAT(answers.ColumnNames(), columns);
  EXPECT_THAT(sample.ColumnNames(), columns);
  EXPECT_THAT(test.ColumnNames(), ElementsAre("image_id"));
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);  // ceil(0.1 * 50)
  ASSERT_EQ(test.num_rows(), 5u);
  ASSERT_EQ(sample.num_rows(), 5u);

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  const std::vector<std::string> classes = {"healthy", "multiple_diseases", "rust", "scab"};
  for (const auto& [table, indices, prefix] :
       {std::tuple{&train, &split->train_indices, "Train_"},
        std::tuple{&answers, &split->test_indices, "Test_"}}) {
    for (size_t i = 0; i < indices->size(); ++i) {
      const RawImage& image = images[(*indices)[i]];
      const std::string new_id = prefix + std::to_string(i);
      EXPECT_EQ(Text(*table, "image_id", i), new_id);
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(table->Find(classes[c])->cells[i], Cell(int64_t{c == image.condition}));
      }
      EXPECT_EQ(public_files.at("images/" + new_id + ".jpg"), image.bytes);
    }
  }
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(Text(test, "image_id", i), "Test_" + std::to_string(i));
    EXPECT_EQ(Text(sample, "image_id", i), "Test_" + std::to_string(i));
    for (const std::string& name : classes) EXPECT_EQ(sample.Find(name)->cells[i], Cell(0.25));
  }
}

TEST(PlantPathologyPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn, images included.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
classes = ["healthy", "multiple_diseases", "rust", "scab"]
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train, answers = train_test_split(old_train, test_size=0.1, random_state=0)
new_id = {old: f"Train_{i}" for i, old in enumerate(train["image_id"].unique())}
new_id.update({old: f"Test_{i}" for i, old in enumerate(answers["image_id"].unique())})
train["image_id"] = train["image_id"].replace(new_id)
answers["image_id"] = answers["image_id"].replace(new_id)
test = answers[["image_id"]].copy()
sample = answers[["image_id"]].copy()
sample[classes] = 0.25
(public / "images").mkdir()
for old in old_train["image_id"]:
    shutil.copyfile(raw / "images" / f"{old}.jpg", public / "images" / f"{new_id[old]}.jpg")
answers.to_csv(private / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
test.to_csv(public / "test.csv", index=False)
train.to_csv(public / "train.csv", index=False)
)py";

TEST(PlantPathologyPrepareTest, OutputsMatchPandasByteForByte) {
  std::vector<RawImage> repeated = RandomImages(40, 13);
  for (int i = 0; i < 40; i += 3) repeated[i].image_id = repeated[0].image_id;  // upstream allows it
  for (const std::vector<RawImage>& images :
       {RandomImages(2, 10), RandomImages(97, 11), RandomImages(500, 12), repeated}) {
    SCOPED_TRACE(images.size());
    const fs::path raw = MakeRaw(images);
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

TEST(PlantPathologyPrepareTest, RunsUpstreamsChecks) {
  std::vector<RawImage> images = RandomImages(20, 3);
  fs::path raw = MakeRaw(images);
  fs::remove(raw / "images" / "Train_7.jpg");
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Image `Train_7.jpg` does not exist"));
  images = RandomImages(20, 4);
  images[5].image_id = "Test_5";
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("to start with `Train_`"));
  raw = MakeRaw(RandomImages(20, 5));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv",
                                "image_id,healthy,rust,scab\nTrain_0,1,0,0\nTrain_1,0,1,0\n")
                  .ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Expected `new_train` to have columns"));
}

TEST(PlantPathologyPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomImages(10, 6));
  fs::remove_all(raw / "images");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Ids that are not text naming a file in images/ never reach the file system.
  for (const std::string bad : {"Train_/../../escape", "Train_1/x", "", "7"}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomImages(10, 7));
    std::string csv = "image_id,healthy,multiple_diseases,rust,scab\n";
    for (int i = 0; i < 10; ++i) csv += (i == 4 ? bad : "Train_" + std::to_string(i)) + ",1,0,0,0\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
