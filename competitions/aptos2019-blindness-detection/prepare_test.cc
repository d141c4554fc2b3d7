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
  std::string id_code;  // 12 hex digits
  int64_t diagnosis;
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({rng.Hex(12), rng.UniformInt(0, 4), "PNG" + rng.Hex(30)});
  }
  return images;
}

// Kaggle's layout: train.csv and train_images/<id_code>.png (upstream reads
// nothing else).
fs::path MakeRaw(const std::vector<RawImage>& images) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train_images");
  CsvTextBuilder csv;
  csv.Row({"id_code", "diagnosis"});
  for (const RawImage& image : images) {
    csv.String(image.id_code).Int(image.diagnosis).EndRow();
    EXPECT_TRUE(
        WriteStringToFile(raw / "train_images" / (image.id_code + ".png"), image.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  return raw;
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

TEST(AptosPrepareTest, SplitsTablesAndImages) {
  const std::vector<RawImage> images = RandomImages(40, 1);
  const fs::path raw = MakeRaw(images);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));
  EXPECT_EQ(public_files.size(), 3u + 40u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id_code", "diagnosis"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id_code"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id_code", "diagnosis"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id_code", "diagnosis"));
  ASSERT_EQ(train.num_rows(), 36u);
  ASSERT_EQ(answers.num_rows(), 4u);  // ceil(0.1 * 40)
  ASSERT_EQ(test.num_rows(), 4u);
  ASSERT_EQ(sample.num_rows(), 4u);

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(40, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawImage& image = images[split->train_indices[i]];
    EXPECT_EQ(Text(train, "id_code", i), image.id_code);
    EXPECT_EQ(train.Find("diagnosis")->cells[i], Cell(image.diagnosis));
    EXPECT_EQ(public_files.at("train_images/" + image.id_code + ".png"), image.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawImage& image = images[split->test_indices[i]];
    EXPECT_EQ(Text(answers, "id_code", i), image.id_code);
    EXPECT_EQ(Text(test, "id_code", i), image.id_code);
    EXPECT_EQ(Text(sample, "id_code", i), image.id_code);
    EXPECT_EQ(answers.Find("diagnosis")->cells[i], Cell(image.diagnosis));
    EXPECT_EQ(sample.Find("diagnosis")->cells[i], Cell(int64_t{0}));
    EXPECT_EQ(public_files.at("test_images/" + image.id_code + ".png"), image.bytes);
  }
}

TEST(AptosPrepareTest, IsDeterministicAndLeavesRawAlone) {
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
train, test = train_test_split(old_train, test_size=0.1, random_state=0)
test_without_labels = test.drop(columns=["diagnosis"])
for folder, split in (("train_images", train), ("test_images", test)):
    (public / folder).mkdir()
    for i in split["id_code"]:
        shutil.copyfile(raw / "train_images" / f"{i}.png", public / folder / f"{i}.png")
sample = test.copy()
sample["diagnosis"] = 0
train.to_csv(public / "train.csv", index=False)
test.to_csv(private / "test.csv", index=False)
test_without_labels.to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(AptosPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {97, 11}, {600, 12}}) {
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

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(AptosPrepareTest, RunsUpstreamsChecks) {
  // An image listed in train.csv but absent.
  std::vector<RawImage> images = RandomImages(20, 3);
  fs::path raw = MakeRaw(images);
  fs::remove(raw / "train_images" / (images[7].id_code + ".png"));
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("does not exist"));
  // A repeated id: in both splits, or twice in one.
  images = RandomImages(40, 4);
  for (int i = 1; i < 40; i += 2) images[i].id_code = images[i - 1].id_code;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("check failed"));
  // Hidden file names, which upstream's closing glob counts miss.
  images = RandomImages(20, 5);
  for (RawImage& image : images) image.id_code = "." + image.id_code;
  EXPECT_THAT(PrepareStatus(MakeRaw(images)).message(), HasSubstr("check failed"));
}

TEST(AptosPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomImages(10, 7));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "id_code,grade\na,1\nb,2\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomImages(10, 7));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "code,diagnosis\na,1\nb,2\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomImages(10, 8));
  std::string csv = "id_code,diagnosis\n";
  for (int i = 0; i < 10; ++i) csv += "../x" + std::to_string(i) + ",1\n";
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be a plain file name"));
}

}  // namespace
}  // namespace mlebench::prepare_test
