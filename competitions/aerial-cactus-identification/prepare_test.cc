#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
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
  std::string id;  // "<32 hex digits>.jpg"
  int64_t has_cactus;
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({rng.Hex(32) + ".jpg", rng.Bernoulli(0.75) ? 1 : 0, "JPEG" + rng.Hex(40)});
  }
  return images;
}

// Kaggle's layout: train.csv (id, has_cactus) and train.zip holding train/<id>.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  CsvTextBuilder csv;
  csv.Row({"id", "has_cactus"});
  std::vector<ZipEntry> entries = {ZipEntry::Directory("train/")};
  std::set<std::string> zipped;
  for (const RawImage& image : images) {
    csv.String(image.id).Int(image.has_cactus).EndRow();
    if (zipped.insert(image.id).second) {
      entries.push_back(ZipEntry::FromBytes("train/" + image.id, image.bytes));
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  EXPECT_TRUE(WriteZip(raw / "train.zip", entries).ok());
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

TEST(AerialCactusIdentificationPrepareTest, SplitsTablesAndImages) {
  const std::vector<RawImage> images = RandomImages(200, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.zip", "train.csv", "train.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "has_cactus"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "has_cactus"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "has_cactus"));
  EXPECT_EQ(answers.num_rows(), 38u);  // ceil(0.19 * 200)
  EXPECT_EQ(train.num_rows(), 162u);
  EXPECT_EQ(Ids(sample), Ids(answers));
  for (const Cell& p : sample.Find("has_cactus")->cells) EXPECT_EQ(p, Cell(0.5));

  // Rows in train_test_split order, labels carried along.
  TrainTestSplitOptions options;
  options.test_size = 0.19;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(200, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Ids(train)[i], image.id);
    EXPECT_EQ(train.Find("has_cactus")->cells[i], Cell(image.has_cactus));
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Ids(answers)[i], image.id);
    EXPECT_EQ(answers.Find("has_cactus")->cells[i], Cell(image.has_cactus));
  }

  // Each archive holds exactly its split's images, at the root, sorted.
  std::map<std::string, std::string> bytes_by_id;
  for (const RawImage& image : images) bytes_by_id[image.id] = image.bytes;
  for (const auto& [zip, table] : {std::pair{"train.zip", &train}, std::pair{"test.zip", &answers}}) {
    SCOPED_TRACE(zip);
    std::vector<std::string> expected = Ids(*table);
    std::sort(expected.begin(), expected.end());
    absl::StatusOr<std::vector<std::string>> names = ListZip(dirs->public_dir / zip);
    ASSERT_TRUE(names.ok()) << names.status();
    EXPECT_EQ(*names, expected);
    const fs::path extracted = testing::NewTempDir("extracted");
    ASSERT_TRUE(ExtractZip(dirs->public_dir / zip, extracted).ok());
    for (const auto& [name, bytes] : testing::ReadTree(extracted)) {
      EXPECT_EQ(bytes, bytes_by_id[name]) << name;
    }
  }
}

TEST(AerialCactusIdentificationPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(60, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn
// (the archives differ by design: Python's zipfile stamps file times).
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
table = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train, test = train_test_split(table, test_size=0.19, random_state=0)
train.to_csv(f"{public}/train.csv", index=False)
test.to_csv(f"{private}/test.csv", index=False)
sample = test.copy()
sample["has_cactus"] = 0.5
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(AerialCactusIdentificationPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{3, 10}, {251, 11}, {1500, 12}}) {
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
    std::map<std::string, std::string> public_files = testing::ReadTree(ours->public_dir);
    public_files.erase("train.zip");
    public_files.erase("test.zip");
    EXPECT_EQ(public_files, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(AerialCactusIdentificationPrepareTest, RunsUpstreamsChecks) {
  // Two rows split 1/1: upstream asserts train is larger than test.
  EXPECT_THAT(PrepareStatus(MakeRaw(RandomImages(2, 3))).message(),
              HasSubstr("The train set should be larger than the test set"));
  // A repeated id.
  std::vector<RawImage> images = RandomImages(30, 4);
  for (RawImage& image : images) image.id = images[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("should not overlap"));
  // No label column: the sample submission gains one, so columns differ.
  const fs::path no_label = MakeRaw(RandomImages(10, 5));
  ASSERT_TRUE(WriteStringToFile(no_label / "train.csv", "id\na.jpg\nb.jpg\nc.jpg\nd.jpg\n").ok());
  EXPECT_THAT(PrepareStatus(no_label).message(), HasSubstr("should have the same columns"));
}

TEST(AerialCactusIdentificationPrepareTest, RejectsBadRawData) {
  // No train.csv, no train.zip.
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_zip = MakeRaw(RandomImages(10, 6));
  fs::remove(no_zip / "train.zip");
  EXPECT_FALSE(PrepareStatus(no_zip).ok());
  // An image listed in train.csv but absent from train.zip.
  const std::vector<RawImage> images = RandomImages(10, 7);
  const fs::path missing_image = MakeRaw(images);
  std::vector<ZipEntry> entries;
  for (size_t i = 1; i < images.size(); ++i) {
    entries.push_back(ZipEntry::FromBytes("train/" + images[i].id, images[i].bytes));
  }
  ASSERT_TRUE(WriteZip(missing_image / "train.zip", entries).ok());
  EXPECT_THAT(PrepareStatus(missing_image).message(),
              HasSubstr("train.zip has no image train/" + images[0].id));
  // Images at the archive root instead of under train/.
  const fs::path flat = MakeRaw(images);
  entries.clear();
  for (const RawImage& image : images) entries.push_back(ZipEntry::FromBytes(image.id, image.bytes));
  ASSERT_TRUE(WriteZip(flat / "train.zip", entries).ok());
  EXPECT_FALSE(PrepareStatus(flat).ok());
  // Ids that are not plain file names never reach the file system.
  for (const std::string bad_id : {"../escape.jpg", "sub/dir.jpg", "..", ""}) {
    SCOPED_TRACE(bad_id);
    std::vector<RawImage> with_bad_id = RandomImages(10, 8);
    for (RawImage& image : with_bad_id) image.id = bad_id + image.id.substr(0, 4);
    with_bad_id[0].id = bad_id;
    const fs::path raw = testing::NewTempDir("bad_id");
    std::string csv = "id,has_cactus\n";
    for (const RawImage& image : with_bad_id) csv += image.id + ",1\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    ASSERT_TRUE(WriteZip(raw / "train.zip", {ZipEntry::FromBytes("train/x.jpg", "x")}).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be an image file name"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
