#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path MakeRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::vector<std::string> Texts(const Table& table, const std::string& column) {
  std::vector<std::string> out;
  for (const Cell& cell : table.Find(column)->cells) out.push_back(std::get<std::string>(cell));
  return out;
}

TEST(KuzushijiPrepareTest, SplitsPagesAndZipsTheirImages) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test_images.zip", "train.csv", "train_images.zip",
                          "unicode_translation.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("gold_submission.csv", "test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table gold = testing::ReadCsvOrFail(dirs->private_dir / "gold_submission.csv");
  EXPECT_EQ(train.num_rows(), 72u);  // 80 pages, ceil(0.1 * 80) = 8 held out
  EXPECT_EQ(test.num_rows(), 8u);
  EXPECT_EQ(Texts(sample, "image_id"), Texts(test, "image_id"));
  EXPECT_EQ(Texts(gold, "image_id"), Texts(test, "image_id"));
  for (const std::string& labels : Texts(sample, "labels")) EXPECT_EQ(labels, "U+003F 1 1 U+FF2F 2 2");
  const std::vector<std::string> train_ids = Texts(train, "image_id");
  for (const std::string& id : Texts(test, "image_id")) {
    EXPECT_EQ(std::count(train_ids.begin(), train_ids.end(), id), 0) << id;
  }
  absl::StatusOr<std::vector<std::string>> test_zip = ListZip(dirs->public_dir / "test_images.zip");
  ASSERT_TRUE(test_zip.ok());
  std::set<std::string> expected;
  for (const std::string& id : Texts(test, "image_id")) expected.insert(id + ".jpg");
  EXPECT_EQ(std::set<std::string>(test_zip->begin(), test_zip->end()), expected);
  absl::StatusOr<std::vector<std::string>> train_zip = ListZip(dirs->public_dir / "train_images.zip");
  ASSERT_TRUE(train_zip.ok());
  EXPECT_EQ(train_zip->size(), 72u);
}

TEST(KuzushijiPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn; the zips are
// compared by their sorted entries (our archives differ from shutil's in
// entry order and timestamps only), everything else byte for byte.
constexpr char kReference[] = R"py(
import shutil, sys, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train, test = train_test_split(old, test_size=0.1, random_state=0)
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
shutil.copyfile(raw / "unicode_translation.csv", public / "unicode_translation.csv")
sample = test.copy()
sample["labels"] = "U+003F 1 1 U+FF2F 2 2"
sample.to_csv(public / "sample_submission.csv", index=False)
gold_labels = []
for label in test["labels"]:
    t = label.split()
    gold_labels.append(" ".join(f"{c} {int(x) + 1} {int(y) + 1}" for c, x, y in zip(t[0::5], t[1::5], t[2::5])))
gold = test.copy()
gold["labels"] = gold_labels
gold.to_csv(private / "gold_submission.csv", index=False)
images = zipfile.ZipFile(raw / "train_images.zip")
for name, frame in (("train", train), ("test", test)):
    listing = sorted(f"{i}.jpg" for i in frame["image_id"])
    with open(public / f"{name}_images.zip.entries", "w") as f:
        for entry in listing:
            f.write(entry + " " + images.read(entry).hex() + "\n")
)py";

TEST(KuzushijiPrepareTest, OutputsMatchPandasByteForByte) {
  for (uint64_t seed : {3, 4}) {
    SCOPED_TRACE(seed);
    const fs::path raw = MakeRaw(seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> expected = testing::ReadTree(reference / "public");
    std::map<std::string, std::string> actual = testing::ReadTree(ours->public_dir);
    for (const std::string name : {"train_images.zip", "test_images.zip"}) {
      // Our archive as "name hex" lines, in sorted name order.
      const fs::path extracted = testing::NewTempDir("extracted");
      ASSERT_TRUE(ExtractZip(ours->public_dir / name, extracted).ok());
      std::string entries;
      for (const auto& [entry, bytes] : testing::ReadTree(extracted)) {
        std::string hex;
        for (unsigned char c : bytes) absl::StrAppend(&hex, absl::Hex(c, absl::kZeroPad2));
        absl::StrAppend(&entries, entry, " ", hex, "\n");
      }
      actual.erase(name);
      actual[name + ".entries"] = entries;
    }
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(KuzushijiPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  std::string rows = "image_id,labels\n";
  for (int i = 0; i < 20; ++i) absl::StrAppend(&rows, "umgy-", i, ",U+306F 1 2 3 4\n");
  // A page without its image in the zip.
  fs::path raw = MakeRaw(5);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", rows).ok());
  EXPECT_THAT(PrepareStatus(raw).ToString(), HasSubstr("no umgy-"));
  // Test labels that are not "label X Y W H" groups or whose X is no int.
  raw = MakeRaw(5);
  absl::StatusOr<Table> table = ReadCsvFile((raw / "train.csv").string());
  ASSERT_TRUE(table.ok());
  for (const char* bad : {"U+306F 1 2 3", "U+306F 1.5 2 3 4"}) {
    SCOPED_TRACE(bad);
    Table edited = *table;
    for (Cell& cell : edited.FindMutable("labels")->cells) cell = std::string(bad);
    ASSERT_TRUE(WriteCsvFile(edited, (raw / "train.csv").string()).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
  // A missing unicode_translation.csv.
  raw = MakeRaw(6);
  fs::remove(raw / "unicode_translation.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // A corrupt zip.
  raw = MakeRaw(7);
  ASSERT_TRUE(WriteStringToFile(raw / "train_images.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
