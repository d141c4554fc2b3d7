#include <filesystem>
#include <set>
#include <string>
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

struct RawImage {
  std::string id;  // nine hex digits
  std::string encoding;
  int64_t width, height;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  std::set<std::string> used;
  while (static_cast<int>(images.size()) < count) {
    std::string id = rng.Hex(9);
    if (!used.insert(id).second) continue;
    images.push_back({id, absl::StrCat(rng.UniformInt(1, 50), " ", rng.UniformInt(1, 30)),
                      rng.UniformInt(10, 90), rng.UniformInt(10, 90)});
  }
  return images;
}

// Kaggle's layout: train.csv, HuBMAP-20-dataset_information.csv (the
// labelled images and `unlabelled` others, shuffled) and train/<id>.{tiff,
// json}, train/<id>-anatomical-structure.json.
fs::path MakeRaw(const std::vector<RawImage>& images, int unlabelled = 4) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder train, info;
  train.Row({"id", "encoding"});
  info.Row({"image_file", "width_pixels", "height_pixels", "glomerulus_segmentation_file", "age"});
  for (int i = 0; i < unlabelled; ++i) {
    info.String(absl::StrCat("test", i, ".tiff")).Int(5).Int(6).String("x.json").Int(40).EndRow();
  }
  std::set<std::string> written;
  for (const RawImage& image : images) {
    train.String(image.id).String(image.encoding).EndRow();
    info.String(image.id + ".tiff")
        .Int(image.width)
        .Int(image.height)
        .String(image.id + ".json")
        .Int(image.width % 50 + 20)
        .EndRow();
    if (image.id.find('/') != std::string::npos || !written.insert(image.id).second) continue;
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (image.id + ".tiff"), "TIFF" + image.id).ok());
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (image.id + ".json"), "[" + image.id + "]").ok());
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (image.id + "-anatomical-structure.json"),
                                  "{" + image.id + "}")
                    .ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "HuBMAP-20-dataset_information.csv", info.text()).ok());
  return raw;
}

std::string PrepareError(const fs::path& raw) {
  return std::string(testing::RunPreparer(kId, raw).status().message());
}

TEST(HubmapPrepareTest, SplitsTwelveAndThree) {
  absl::StatusOr<testing::PreparedDirs> dirs =
      testing::RunPreparer(kId, MakeRaw(RandomImages(15, 1)));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::FileNames(dirs->public_dir).size(), 3u + 12 * 3 + 3 * 3 + 1);
  EXPECT_TRUE(fs::exists(dirs->public_dir / "test" / "sample_submission.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("gold_submission.csv", "test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table gold = testing::ReadCsvOrFail(dirs->private_dir / "gold_submission.csv");
  const Table info = testing::ReadCsvOrFail(dirs->public_dir / "HuBMAP-20-dataset_information.csv");
  EXPECT_EQ(train.num_rows(), 12u);
  EXPECT_EQ(answers.num_rows(), 3u);
  EXPECT_EQ(info.num_rows(), 15u);  // the unlabelled rows are gone
  EXPECT_THAT(answers.ColumnNames(),
              ElementsAre("id", "encoding", "width_pixels", "height_pixels"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "predicted"));
  EXPECT_EQ(sample.Find("id")->cells, answers.Find("id")->cells);
  EXPECT_EQ(gold.Find("predicted")->cells, answers.Find("encoding")->cells);
}

TEST(HubmapPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(15, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn; every output
// file must match. pandas >= 2 (upstream's) replaces ".tiff" literally;
// Debian's 1.5 would read it as a regular expression, hence regex=False.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
old_train = pd.read_csv(raw / "train.csv")
info = pd.read_csv(raw / "HuBMAP-20-dataset_information.csv")
train, test = train_test_split(old_train, train_size=12, test_size=3, random_state=0)
info["id"] = info["image_file"].str.replace(".tiff", "", regex=False)
info = info[info["id"].isin(old_train["id"])]
test = test.merge(info[["id", "width_pixels", "height_pixels"]], on="id")
info.drop(columns=["id"]).to_csv(public / "HuBMAP-20-dataset_information.csv", index=False)
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
sample = test[["id"]].copy()
sample["predicted"] = ""
sample.to_csv(public / "sample_submission.csv", index=False)
gold = sample.copy()
gold["predicted"] = test["encoding"]
gold.to_csv(private / "gold_submission.csv", index=False)
for folder, frame in (("train", train), ("test", test)):
    (public / folder).mkdir()
    for i in frame["id"]:
        for name in (f"{i}.tiff", f"{i}.json", f"{i}-anatomical-structure.json"):
            shutil.copy(raw / "train" / name, public / folder / name)
shutil.copy(public / "sample_submission.csv", public / "test" / "sample_submission.csv")
)py";

TEST(HubmapPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{15, 10}, {15, 11}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomImages(rows, seed));
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

TEST(HubmapPrepareTest, RunsUpstreamsChecks) {
  // Too few rows for a 12/3 split.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(RandomImages(14, 3))).ok());
  // More than 15: the split leaves rows out, which upstream asserts against
  // (Kaggle's train.csv has exactly 15).
  EXPECT_THAT(PrepareError(MakeRaw(RandomImages(16, 3))),
              HasSubstr("Length of new_train and new_test"));
  // A test image without an information row: the merge drops it.
  std::vector<RawImage> images = RandomImages(15, 4);
  const fs::path raw = MakeRaw(images);
  ASSERT_TRUE(
      WriteStringToFile(raw / "HuBMAP-20-dataset_information.csv",
                        "image_file,width_pixels,height_pixels\n" + images[0].id + ".tiff,3,3\n")
          .ok());
  EXPECT_THAT(PrepareError(raw), HasSubstr("Length of new_train and new_test"));
  // A repeated id lands in both splits or leaves too few files.
  images = RandomImages(15, 5);
  for (RawImage& image : images) image.id = images[0].id;
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(images)).ok());
}

TEST(HubmapPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  const fs::path no_files = MakeRaw(RandomImages(15, 6));
  fs::remove_all(no_files / "train");
  EXPECT_THAT(PrepareError(no_files), HasSubstr("raw data has no file train/"));
  std::vector<RawImage> bad = RandomImages(15, 7);
  bad[3].id = "../x";
  EXPECT_THAT(PrepareError(MakeRaw(bad)), HasSubstr("image file stem"));
}

}  // namespace
}  // namespace mlebench::prepare_test
