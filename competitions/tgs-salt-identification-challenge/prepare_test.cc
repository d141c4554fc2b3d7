#include <filesystem>
#include <map>
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
#include "formats/zip_archive.h"
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
  std::string id;        // ten hex digits
  std::string rle_mask;  // "" for no salt
  std::string image;     // stand-ins for PNG bytes: the preparer only copies
  std::string mask;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  std::set<std::string> used;
  while (static_cast<int>(images.size()) < count) {
    std::string id = rng.Hex(10);
    if (!used.insert(id).second) continue;
    std::string rle = rng.Bernoulli(0.4)
                          ? ""
                          : absl::StrCat(rng.UniformInt(1, 5000), " ", rng.UniformInt(1, 900));
    images.push_back({id, rle, "PNG" + rng.Hex(30), "MASK" + rng.Hex(20)});
  }
  return images;
}

// Kaggle's layout: competition_data.zip (competition_data/train.csv,
// train/images, train/masks) and depths.csv with train and other ids.
fs::path MakeRaw(const std::vector<RawImage>& images, int extra_depths = 5) {
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv, depths;
  csv.Row({"id", "rle_mask"});
  depths.Row({"id", "z"});
  std::vector<ZipEntry> entries;
  std::set<std::string> zipped;
  for (const RawImage& image : images) {
    csv.String(image.id).String(image.rle_mask).EndRow();
    depths.String(image.id).Int(static_cast<int64_t>(image.image.size()) * 7).EndRow();
    // A repeated id has one image; an id that is no file name has none.
    if (image.id.find('/') != std::string::npos || !zipped.insert(image.id).second) continue;
    entries.push_back(ZipEntry::FromBytes(
        absl::StrCat("competition_data/train/images/", image.id, ".png"), image.image));
    entries.push_back(ZipEntry::FromBytes(
        absl::StrCat("competition_data/train/masks/", image.id, ".png"), image.mask));
  }
  for (int i = 0; i < extra_depths; ++i) depths.String(absl::StrCat("test", i)).Int(i).EndRow();
  entries.push_back(ZipEntry::FromBytes("competition_data/train.csv", csv.text()));
  EXPECT_TRUE(WriteStringToFile(raw / "depths.csv", depths.text()).ok());
  EXPECT_TRUE(WriteZip(raw / "competition_data.zip", entries).ok());
  return raw;
}

std::string PrepareError(const fs::path& raw) {
  return std::string(testing::RunPreparer(kId, raw).status().message());
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(TgsSaltPrepareTest, SplitsTablesAndImages) {
  const std::vector<RawImage> images = RandomImages(40, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(images));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::vector<std::string> files = testing::FileNames(dirs->public_dir);
  EXPECT_EQ(files.size(), 3u + 30 * 2 + 10);  // 3 CSVs, images and masks
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  EXPECT_FALSE(fs::exists(dirs->public_dir / "test" / "masks"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table depths = testing::ReadCsvOrFail(dirs->public_dir / "depths.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "rle_mask"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "rle_mask"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "rle_mask"));
  EXPECT_THAT(depths.ColumnNames(), ElementsAre("id", "z"));
  EXPECT_EQ(train.num_rows(), 30u);
  EXPECT_EQ(answers.num_rows(), 10u);  // ceil(0.25 * 40)
  EXPECT_EQ(depths.num_rows(), 30u);   // train ids only
  EXPECT_EQ(sample.Find("id")->cells, answers.Find("id")->cells);
  for (const Cell& cell : sample.Find("rle_mask")->cells) EXPECT_EQ(cell, Cell(std::string("1 1")));
  std::set<std::string> train_ids;
  for (const Cell& cell : train.Find("id")->cells) train_ids.insert(std::get<std::string>(cell));
  for (const Cell& cell : answers.Find("id")->cells) {
    const std::string& id = std::get<std::string>(cell);
    EXPECT_EQ(train_ids.count(id), 0u);
    EXPECT_TRUE(fs::exists(dirs->public_dir / "test" / "images" / (id + ".png")));
  }
  EXPECT_EQ(depths.Find("id")->cells, train.Find("id")->cells);  // both sorted by id
}

TEST(TgsSaltPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(20, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas and scikit-learn; every output
// file, images included, must match.
constexpr char kReference[] = R"py(
import shutil, sys, tempfile, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
tmp = Path(tempfile.mkdtemp())
zipfile.ZipFile(raw / "competition_data.zip").extractall(tmp)
data = tmp / "competition_data"
old = pd.read_csv(data / "train.csv").fillna("")
train, test = train_test_split(old, test_size=0.25, random_state=0)
train.sort_values(by="id").to_csv(public / "train.csv", index=False)
test.sort_values(by="id").to_csv(private / "test.csv", index=False)
for folder, frame in (("train/images", train), ("train/masks", train), ("test/images", test)):
    (public / folder).mkdir(parents=True, exist_ok=True)
    for i in frame["id"]:
        source = "masks" if folder.endswith("masks") else "images"
        shutil.copyfile(data / "train" / source / f"{i}.png", public / folder / f"{i}.png")
sample = test.drop(columns=["rle_mask"]).copy()
sample["rle_mask"] = "1 1"
sample.sort_values(by="id").to_csv(public / "sample_submission.csv", index=False)
depths = pd.read_csv(raw / "depths.csv")
depths[depths["id"].isin(set(train["id"]))].sort_values(by="id").to_csv(public / "depths.csv", index=False)
)py";

TEST(TgsSaltPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{4, 10}, {97, 11}, {400, 12}}) {
    SCOPED_TRACE(rows);
    std::vector<RawImage> images = RandomImages(rows, seed);
    if (rows > 50) {
      for (RawImage& image : images) image.rle_mask = "";  // a column of NaN
    }
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

TEST(TgsSaltPrepareTest, RunsUpstreamsChecks) {
  // A repeated id: fewer images than rows.
  std::vector<RawImage> images = RandomImages(12, 3);
  images[1].id = images[0].id;
  EXPECT_THAT(PrepareError(MakeRaw(images)),
              HasSubstr("doesn't match the number of training images"));
  // Ids that read as numbers are not strings.
  images = RandomImages(12, 4);
  for (size_t i = 0; i < images.size(); ++i) images[i].id = absl::StrCat(1000 + i);
  EXPECT_THAT(PrepareError(MakeRaw(images)), HasSubstr("are strings"));
}

TEST(TgsSaltPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_depths = MakeRaw(RandomImages(10, 5));
  fs::remove(no_depths / "depths.csv");
  EXPECT_FALSE(PrepareStatus(no_depths).ok());
  // A train image without its mask.
  const std::vector<RawImage> images = RandomImages(10, 6);
  const fs::path missing_mask = MakeRaw(images);
  std::vector<ZipEntry> entries = {ZipEntry::FromBytes(
      "competition_data/train.csv", "id,rle_mask\n" + images[0].id + ",\n" + images[1].id + ",\n")};
  for (int i = 0; i < 2; ++i) {
    entries.push_back(ZipEntry::FromBytes("competition_data/train/images/" + images[i].id + ".png",
                                          images[i].image));
  }
  ASSERT_TRUE(WriteZip(missing_mask / "competition_data.zip", entries).ok());
  EXPECT_THAT(PrepareError(missing_mask), HasSubstr("has no file masks/"));
  // An extra image that no row names.
  const fs::path extra_image = MakeRaw(images);
  entries.push_back(
      ZipEntry::FromBytes("competition_data/train/masks/" + images[0].id + ".png", "m"));
  entries.push_back(
      ZipEntry::FromBytes("competition_data/train/masks/" + images[1].id + ".png", "m"));
  entries[0] =
      ZipEntry::FromBytes("competition_data/train.csv", "id,rle_mask\n" + images[0].id + ",\n");
  ASSERT_TRUE(WriteZip(extra_image / "competition_data.zip", entries).ok());
  EXPECT_FALSE(PrepareStatus(extra_image).ok());
  // Ids that are not plain file stems never reach the file system.
  std::vector<RawImage> bad = RandomImages(8, 7);
  bad[0].id = "../x";
  EXPECT_THAT(PrepareError(MakeRaw(bad)), HasSubstr("must be an image file stem"));
}

}  // namespace
}  // namespace mlebench::prepare_test
