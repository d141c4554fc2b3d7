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
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawImage {
  std::string image_id;  // "<6 digits>.jpg"
  std::string label;
  std::string variety;
  int64_t age;
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> labels = {"blast", "hispa", "normal", "tungro"};
  const std::vector<std::string> varieties = {"ADT45", "IR20", "Ponni"};
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({std::to_string(100000 + i) + ".jpg", rng.Choice(labels),
                      rng.Choice(varieties), rng.UniformInt(45, 82), "JPEG" + rng.Hex(40)});
  }
  rng.Shuffle(images);
  return images;
}

// Kaggle's layout: train.csv, sample_submission.csv and
// train_images/<label>/<image_id>.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv;
  csv.Row({"image_id", "label", "variety", "age"});
  for (const RawImage& image : images) {
    csv.String(image.image_id).String(image.label).String(image.variety).Int(image.age).EndRow();
    fs::create_directories(raw / "train_images" / image.label);
    EXPECT_TRUE(
        WriteStringToFile(raw / "train_images" / image.label / image.image_id, image.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "sample_submission.csv",
                                "image_id,label\n200001.jpg,\n200002.jpg,\n")
                  .ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(PaddyDiseasePrepareTest, SplitsTablesAndImages) {
  const std::vector<RawImage> images = RandomImages(40, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("image_id", "label", "variety", "age"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("image_id", "label", "variety", "age"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("image_id", "label"));
  ASSERT_EQ(train.num_rows(), 30u);  // floor(0.75 * 40)
  ASSERT_EQ(answers.num_rows(), 10u);
  ASSERT_EQ(sample.num_rows(), 10u);
  // The sample submission's labels are empty, which pandas reads as NaN.
  for (const Cell& label : sample.Find("label")->cells) EXPECT_TRUE(IsMissing(label));
  EXPECT_EQ(public_files.size(), 2u + 30u + 10u);

  TrainTestSplitOptions options;
  options.train_size = 0.75;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(40, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Text(train, "image_id", i), image.image_id);
    EXPECT_EQ(Text(train, "label", i), image.label);
    EXPECT_EQ(train.Find("age")->cells[i], Cell(image.age));
    EXPECT_EQ(public_files.at("train_images/" + image.label + "/" + image.image_id), image.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Text(answers, "image_id", i), image.image_id);
    EXPECT_EQ(Text(sample, "image_id", i), image.image_id);
    EXPECT_EQ(Text(answers, "label", i), image.label);
    EXPECT_EQ(public_files.at("test_images/" + image.image_id), image.bytes);
  }
}

TEST(PaddyDiseasePrepareTest, IsDeterministicAndLeavesRawAlone) {
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
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train, test = train_test_split(old_train, train_size=0.75, random_state=0)
sample = test[["image_id", "label"]].copy()
sample["label"] = ""
train.to_csv(public / "train.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
test.to_csv(private / "test.csv", index=False)
for r in train.itertuples():
    (public / "train_images" / r.label).mkdir(parents=True, exist_ok=True)
    shutil.copy(raw / "train_images" / r.label / r.image_id, public / "train_images" / r.label / r.image_id)
(public / "test_images").mkdir(exist_ok=True)
for r in test.itertuples():
    shutil.copy(raw / "train_images" / r.label / r.image_id, public / "test_images" / r.image_id)
)py";

TEST(PaddyDiseasePrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 10}, {97, 11}, {600, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomImages(rows, seed));
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

TEST(PaddyDiseasePrepareTest, RunsUpstreamsChecks) {
  // An image listed in train.csv but absent (or under another label).
  std::vector<RawImage> images = RandomImages(20, 3);
  fs::path raw = MakeRaw(images);
  fs::remove(raw / "train_images" / images[7].label / images[7].image_id);
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("does not exist"));
  // An id listed twice: a second copy to the same place, or in both splits.
  images = RandomImages(40, 4);
  for (RawImage& image : images) image.label = "blast";
  for (int i = 1; i < 40; i += 2) images[i].image_id = images[i - 1].image_id;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(),
              ::testing::AnyOf(HasSubstr("already exists"), HasSubstr("overlap")));
  // Images that upstream's closing `*.jpg` counts would miss.
  images = RandomImages(20, 5);
  for (RawImage& image : images) image.image_id += ".png";
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("is not a *.jpg file"));
  images = RandomImages(20, 5);
  for (RawImage& image : images) image.image_id = "." + image.image_id;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("is not a *.jpg file"));
  images = RandomImages(20, 5);
  for (RawImage& image : images) image.label = ".hidden";  // only train keeps label folders
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("is not a *.jpg file"));
  // A sample submission with other columns.
  raw = MakeRaw(RandomImages(20, 6));
  ASSERT_TRUE(WriteStringToFile(raw / "sample_submission.csv", "id,label\n1,\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("sample submission"));
}

TEST(PaddyDiseasePrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomImages(10, 7));
  fs::remove(raw / "sample_submission.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomImages(10, 7));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "image_id,variety\n1.jpg,ADT45\n2.jpg,IR20\n"
                                                   "3.jpg,IR20\n4.jpg,IR20\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Ids and labels that are not plain names never reach the file system.
  for (const std::string bad : {"../escape.jpg", "sub/dir.jpg", "..", ""}) {
    SCOPED_TRACE(bad);
    std::vector<RawImage> images = RandomImages(10, 8);
    for (RawImage& image : images) image.image_id = bad;
    raw = MakeRaw(RandomImages(10, 8));
    std::string csv = "image_id,label,variety,age\n";
    for (const RawImage& image : images) csv += image.image_id + ",blast,IR20,50\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be a plain file or folder name"));
  }
  // A numeric label cannot name a folder (pathlib raises).
  raw = MakeRaw(RandomImages(10, 9));
  std::string csv = "image_id,label,variety,age\n";
  for (int i = 0; i < 10; ++i) csv += std::to_string(100000 + i) + ".jpg," + std::to_string(i) + ",IR20,50\n";
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be a plain file or folder name"));
}

}  // namespace
}  // namespace mlebench::prepare_test
