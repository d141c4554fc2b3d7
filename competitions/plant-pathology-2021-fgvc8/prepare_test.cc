#include <filesystem>
#include <map>
#include <string>
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
  std::string image;   // "<hex>.jpg"
  std::string labels;  // space-separated
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> label_sets = {"healthy", "scab", "rust complex",
                                               "scab frog_eye_leaf_spot", "powdery_mildew"};
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({rng.Hex(16) + ".jpg", rng.Choice(label_sets), "JPEG" + rng.Hex(40)});
  }
  return images;
}

// Kaggle's layout: train.csv (image, labels) and train_images/<image>.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train_images");
  CsvTextBuilder csv;
  csv.Row({"image", "labels"});
  for (const RawImage& image : images) {
    csv.Row({image.image, image.labels});
    EXPECT_TRUE(WriteStringToFile(raw / "train_images" / image.image, image.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(PlantPathology2021PrepareTest, SplitsAndCopies) {
  const std::vector<RawImage> images = RandomImages(50, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("answers.csv")));
  EXPECT_EQ(public_files.size(), 2u + 50u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  for (const Table* table : {&train, &answers, &sample}) {
    EXPECT_THAT(table->ColumnNames(), ElementsAre("image", "labels"));
  }
  ASSERT_EQ(train.num_rows(), 40u);
  ASSERT_EQ(answers.num_rows(), 10u);
  ASSERT_EQ(sample.num_rows(), 10u);

  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Text(train, "image", i), image.image);
    EXPECT_EQ(Text(train, "labels", i), image.labels);
    EXPECT_EQ(public_files.at("train_images/" + image.image), image.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Text(answers, "image", i), image.image);
    EXPECT_EQ(Text(answers, "labels", i), image.labels);
    EXPECT_EQ(Text(sample, "image", i), image.image);
    EXPECT_EQ(Text(sample, "labels", i), "healthy");
    EXPECT_EQ(public_files.at("test_images/" + image.image), image.bytes);
    EXPECT_FALSE(public_files.contains("train_images/" + image.image));
  }
}

TEST(PlantPathology2021PrepareTest, IsDeterministicAndLeavesRawAlone) {
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
new_train, answers = train_test_split(old_train, test_size=0.2, random_state=0)
submission = answers.copy()
submission["labels"] = "healthy"
answers.to_csv(private / "answers.csv", index=False)
new_train.to_csv(public / "train.csv", index=False)
submission.to_csv(public / "sample_submission.csv", index=False)
for split, table in (("train_images", new_train), ("test_images", answers)):
    (public / split).mkdir()
    for name in table["image"]:
        shutil.copyfile(raw / "train_images" / name, public / split / name)
)py";

TEST(PlantPathology2021PrepareTest, OutputsMatchPandasByteForByte) {
  std::vector<RawImage> odd = RandomImages(40, 13);
  odd[3].labels = "";                     // missing labels stay missing
  odd[5].labels = "scab, \"quoted\"";     // needs quoting
  odd[7].labels = "  rust   complex ";    // kept verbatim
  for (const std::vector<RawImage>& images :
       {RandomImages(2, 10), RandomImages(97, 11), RandomImages(400, 12), odd}) {
    SCOPED_TRACE(images.size());
    const fs::path raw = MakeRaw(images);
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

TEST(PlantPathology2021PrepareTest, RunsUpstreamsChecks) {
  // A repeated image lands in both splits (or twice in one: one file for two
  // rows fails the image count check).
  std::vector<RawImage> images = RandomImages(20, 3);
  for (RawImage& image : images) image.image = images[0].image;
  EXPECT_FALSE(PrepareStatus(MakeRaw(images)).ok());
  images = RandomImages(20, 4);
  images[6].image = "6.png";  // copied, but not a .jpg
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(),
              HasSubstr("should have the same number of images"));
  const fs::path raw = MakeRaw(RandomImages(20, 5));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "image,label\na.jpg,rust\nb.jpg,scab\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("'image' and 'labels' columns"));
}

TEST(PlantPathology2021PrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomImages(10, 6));
  fs::remove(raw / "train_images" / RandomImages(10, 6)[0].image);
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Names that are not a file in train_images/ never reach the file system.
  for (const std::string bad : {"../escape.jpg", "x/y.jpg", "..", "7"}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomImages(10, 7));
    std::string csv = "image,labels\n";
    for (int i = 0; i < 10; ++i) csv += (i == 4 ? bad : std::to_string(i) + "a.jpg") + ",rust\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
