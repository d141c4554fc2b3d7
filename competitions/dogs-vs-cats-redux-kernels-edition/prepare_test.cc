#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawImage {
  std::string name;  // "cat.<n>.jpg" or "dog.<n>.jpg"
  std::string bytes;
};

// `count` images, about half cats, numbered per class as on Kaggle, in name
// order (as upstream's sorted glob sees them).
std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  int cats = 0, dogs = 0;
  for (int i = 0; i < count; ++i) {
    const bool cat = rng.Bernoulli(0.5);
    images.push_back({absl::StrCat(cat ? "cat." : "dog.", cat ? cats++ : dogs++, ".jpg"),
                      "JPEG" + rng.Hex(40)});
  }
  std::sort(images.begin(), images.end(),
            [](const RawImage& a, const RawImage& b) { return a.name < b.name; });
  return images;
}

// Kaggle's layout: train.zip holding train/<name>, test.zip holding
// test/<n>.jpg (unlabelled; upstream extracts it but uses nothing in it).
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  std::vector<ZipEntry> train = {ZipEntry::Directory("train/")};
  for (const RawImage& image : images) {
    train.push_back(ZipEntry::FromBytes("train/" + image.name, image.bytes));
  }
  EXPECT_TRUE(WriteZip(raw / "train.zip", train).ok());
  EXPECT_TRUE(WriteZip(raw / "test.zip", {ZipEntry::Directory("test/"),
                                          ZipEntry::FromBytes("test/1.jpg", "JPEG-test")})
                  .ok());
  EXPECT_TRUE(WriteStringToFile(raw / "sample_submission.csv", "id,label\n1,0.5\n").ok());
  return raw;
}

TEST(DogsVsCatsPrepareTest, RenamesSplitsAndLabelsImages) {
  const std::vector<RawImage> images = RandomImages(100, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  // 90 train + 10 test images, both archives, the sample submission.
  EXPECT_EQ(public_files.size(), 100u + 3u);
  EXPECT_TRUE(public_files.count("train.zip") && public_files.count("test.zip") &&
              public_files.count("sample_submission.csv"));
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ::testing::SizeIs(1));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(100, options);
  ASSERT_TRUE(split.ok());
  int cats = 0, dogs = 0;
  for (int64_t index : split->train_indices) {
    const RawImage& image = images[index];
    const std::string renamed = image.name[0] == 'c' ? absl::StrCat("cat.", cats++, ".jpg")
                                                     : absl::StrCat("dog.", dogs++, ".jpg");
    EXPECT_EQ(public_files.at("train/" + renamed), image.bytes) << renamed;
  }
  std::string answers = "id,label\n", sample = "id,label\n";
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(public_files.at(absl::StrCat("test/", i + 1, ".jpg")), image.bytes);
    absl::StrAppend(&answers, i + 1, ",", image.name[0] == 'd' ? 1 : 0, "\n");
    absl::StrAppend(&sample, i + 1, ",0.5\n");
  }
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).at("answers.csv"), answers);
  EXPECT_EQ(public_files.at("sample_submission.csv"), sample);

  // Each archive holds its folder's files at the root, sorted.
  for (const std::string folder : {"train", "test"}) {
    SCOPED_TRACE(folder);
    std::vector<std::string> expected;
    for (const auto& [name, bytes] : public_files) {
      if (name.rfind(folder + "/", 0) == 0) expected.push_back(name.substr(folder.size() + 1));
    }
    absl::StatusOr<std::vector<std::string>> names =
        ListZip(dirs->public_dir / (folder + ".zip"));
    ASSERT_TRUE(names.ok()) << names.status();
    EXPECT_EQ(*names, expected);
    const fs::path extracted = testing::NewTempDir("extracted");
    ASSERT_TRUE(ExtractZip(dirs->public_dir / (folder + ".zip"), extracted).ok());
    for (const auto& [name, bytes] : testing::ReadTree(extracted)) {
      EXPECT_EQ(bytes, public_files.at(folder + "/" + name)) << name;
    }
  }
}

TEST(DogsVsCatsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(40, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pathlib, pandas and scikit-learn (the
// archives are left out: Python's zipfile stamps file times).
constexpr char kReference[] = R"py(
import shutil, sys, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private, work = map(Path, sys.argv[1:5])
zipfile.ZipFile(raw / "train.zip").extractall(work)
images = sorted(list((work / "train").glob("*.jpg")))
train, test = train_test_split(images, test_size=0.1, random_state=0)
(public / "train").mkdir()
cat = dog = 0
for img in train:
    if "cat" in img.name:
        shutil.copy(img, public / "train" / f"cat.{cat}.jpg"); cat += 1
    else:
        shutil.copy(img, public / "train" / f"dog.{dog}.jpg"); dog += 1
(public / "test").mkdir()
for i, img in enumerate(test, start=1):
    shutil.copy(img, public / "test" / f"{i}.jpg")
answers = pd.DataFrame({"id": list(range(1, len(test) + 1)),
                        "label": [int("dog" in img.name) for img in test]})
answers.to_csv(private / "answers.csv", index=False)
pd.DataFrame({"id": list(range(1, len(test) + 1)),
              "label": [0.5] * len(test)}).to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(DogsVsCatsPrepareTest, MatchesPythonByteForByte) {
  const std::vector<std::pair<int, uint64_t>> sizes_and_seeds = {{2, 10}, {57, 11}, {500, 12}};
  for (const auto& [rows, seed] : sizes_and_seeds) {
    SCOPED_TRACE(rows);
    std::vector<RawImage> images = RandomImages(rows, seed);
    // A name with both words: a cat in train, a dog (label 1) in test.
    images.push_back({"catdog.jpg", "both"});
    const fs::path raw = MakeRaw(images);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    fs::create_directories(reference / "work");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(),
                     (reference / "private").string(), (reference / "work").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> public_files = testing::ReadTree(ours->public_dir);
    public_files.erase("train.zip");
    public_files.erase("test.zip");
    EXPECT_EQ(public_files, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(DogsVsCatsPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_test_zip = MakeRaw(RandomImages(10, 3));
  fs::remove(no_test_zip / "test.zip");
  EXPECT_FALSE(PrepareStatus(no_test_zip).ok());
  const fs::path corrupt = MakeRaw(RandomImages(10, 4));
  ASSERT_TRUE(WriteStringToFile(corrupt / "train.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(corrupt).ok());
  // Images at the archive root instead of under train/.
  const fs::path flat = testing::NewTempDir("flat");
  ASSERT_TRUE(WriteZip(flat / "train.zip", {ZipEntry::FromBytes("cat.0.jpg", "x"),
                                            ZipEntry::FromBytes("dog.0.jpg", "y")})
                  .ok());
  ASSERT_TRUE(WriteZip(flat / "test.zip", {ZipEntry::FromBytes("test/1.jpg", "z")}).ok());
  EXPECT_THAT(PrepareStatus(flat).message(), HasSubstr("no train/ folder"));
  // No .jpg images at all, or only one: train_test_split cannot split.
  EXPECT_FALSE(PrepareStatus(MakeRaw({})).ok());
  EXPECT_FALSE(PrepareStatus(MakeRaw({{"cat.0.jpg", "x"}})).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
