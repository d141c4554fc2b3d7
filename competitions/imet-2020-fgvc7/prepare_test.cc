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
constexpr char kLabels[] = "attribute_id,attribute_name\n0,culture::a\n1,tag::b\n2,tag::c\n";

struct RawImage {
  std::string id;             // 16 hex digits
  std::string attribute_ids;  // space-separated
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> attribute_sets = {"0 1", "2", "0 1 2", "1 2", "13 405 1092"};
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({rng.Hex(16), rng.Choice(attribute_sets), "PNG" + rng.Hex(40)});
  }
  return images;
}

// Kaggle's layout: train.csv (id, attribute_ids), labels.csv, train/<id>.png.
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder csv;
  csv.Row({"id", "attribute_ids"});
  for (const RawImage& image : images) {
    csv.Row({image.id, image.attribute_ids});
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (image.id + ".png"), image.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "labels.csv", kLabels).ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(ImetPrepareTest, SplitsAndCopies) {
  const std::vector<RawImage> images = RandomImages(40, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("answers.csv")));
  EXPECT_EQ(public_files.size(), 3u + 40u);
  EXPECT_EQ(public_files.at("labels.csv"), kLabels);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  for (const Table* table : {&train, &answers, &sample}) {
    EXPECT_THAT(table->ColumnNames(), ElementsAre("id", "attribute_ids"));
  }
  ASSERT_EQ(train.num_rows(), 34u);
  ASSERT_EQ(answers.num_rows(), 6u);  // ceil(0.15 * 40)
  ASSERT_EQ(sample.num_rows(), 6u);

  TrainTestSplitOptions options;
  options.test_size = 0.15;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(40, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Text(train, "id", i), image.id);
    EXPECT_EQ(Text(train, "attribute_ids", i), image.attribute_ids);
    EXPECT_EQ(public_files.at("train/" + image.id + ".png"), image.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Text(answers, "id", i), image.id);
    EXPECT_EQ(Text(answers, "attribute_ids", i), image.attribute_ids);
    EXPECT_EQ(Text(sample, "id", i), image.id);
    EXPECT_EQ(Text(sample, "attribute_ids", i), "0 1 2");
    EXPECT_EQ(public_files.at("test/" + image.id + ".png"), image.bytes);
  }
}

TEST(ImetPrepareTest, IsDeterministicAndLeavesRawAlone) {
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
new_train, answers = train_test_split(old_train, test_size=0.15, random_state=0)
sample = answers.copy()
sample["attribute_ids"] = "0 1 2"
answers.to_csv(private / "answers.csv", index=False)
new_train.to_csv(public / "train.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
shutil.copyfile(raw / "labels.csv", public / "labels.csv")
for split, table in (("train", new_train), ("test", answers)):
    (public / split).mkdir()
    for file_id in table["id"]:
        shutil.copyfile(raw / "train" / f"{file_id}.png", public / split / f"{file_id}.png")
)py";

TEST(ImetPrepareTest, OutputsMatchPandasByteForByte) {
  std::vector<RawImage> odd = RandomImages(40, 13);
  odd[3].attribute_ids = "";           // missing stays missing
  odd[5].attribute_ids = " 7  8 ";     // kept verbatim
  std::vector<RawImage> numeric = RandomImages(30, 14);  // all ids read as numbers
  for (size_t i = 0; i < numeric.size(); ++i) numeric[i].id = std::to_string(1000 + 7 * i);
  for (const std::vector<RawImage>& images :
       {RandomImages(2, 10), RandomImages(97, 11), RandomImages(300, 12), odd, numeric}) {
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

TEST(ImetPrepareTest, RunsUpstreamsChecks) {
  // A repeated id lands in both splits, or twice in one (one file, two rows).
  std::vector<RawImage> images = RandomImages(20, 3);
  for (RawImage& image : images) image.id = images[0].id;
  EXPECT_FALSE(PrepareStatus(MakeRaw(images)).ok());
  fs::path raw = MakeRaw(RandomImages(20, 5));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "id,attributes\na,1 2\nb,3\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("should have the same columns"));
}

TEST(ImetPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomImages(10, 6));
  fs::remove(raw / "train" / (RandomImages(10, 6)[0].id + ".png"));
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomImages(10, 6));
  fs::remove(raw / "labels.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Ids that are not a file in train/ never reach the file system.
  for (const std::string bad : {"../escape", "x/y"}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomImages(10, 7));
    std::string csv = "id,attribute_ids\n";
    for (int i = 0; i < 10; ++i) csv += (i == 4 ? bad : "a" + std::to_string(i)) + ",1 2\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
