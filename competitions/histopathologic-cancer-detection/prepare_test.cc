#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
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
  std::string id;  // 40 hex digits
  int64_t label;
  std::string bytes;
};

std::vector<RawImage> RandomImages(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawImage> images;
  for (int i = 0; i < count; ++i) {
    images.push_back({rng.Hex(40), rng.Bernoulli(0.4) ? 1 : 0, "II*" + rng.Hex(30)});
  }
  return images;
}

// Kaggle's layout: train_labels.csv (id, label), train/<id>.tif and an
// unlabelled test/ folder of `num_test` images.
fs::path MakeRaw(const std::vector<RawImage>& images, int num_test) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  fs::create_directories(raw / "test");
  CsvTextBuilder csv;
  csv.Row({"id", "label"});
  for (const RawImage& image : images) {
    csv.String(image.id).Int(image.label).EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (image.id + ".tif"), image.bytes).ok());
  }
  for (int i = 0; i < num_test; ++i) {
    EXPECT_TRUE(WriteStringToFile(raw / "test" / ("t" + std::to_string(i) + ".tif"), "x").ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_labels.csv", csv.text()).ok());
  return raw;
}

std::vector<std::string> Ids(const Table& table) {
  std::vector<std::string> ids;
  for (const Cell& cell : table.Find("id")->cells) ids.push_back(std::get<std::string>(cell));
  return ids;
}

TEST(HistopathologicPrepareTest, SplitsLabelsAndImages) {
  const std::vector<RawImage> images = RandomImages(120, 1);
  const fs::path raw = MakeRaw(images, 30);  // test share 30 / 150 = 0.2
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train_labels.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "label"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "label"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "label"));
  EXPECT_EQ(answers.num_rows(), 24u);  // ceil(0.2 * 120)
  EXPECT_EQ(train.num_rows(), 96u);
  EXPECT_EQ(Ids(sample), Ids(answers));
  for (const Cell& label : sample.Find("label")->cells) EXPECT_EQ(label, Cell(int64_t{0}));

  // Rows keep train_labels.csv's order (upstream selects them with isin).
  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  const std::set<int64_t> test_rows = [&] {
    absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(120, options);
    return std::set<int64_t>(split->test_indices.begin(), split->test_indices.end());
  }();
  std::vector<std::string> expected_train, expected_test;
  std::map<std::string, std::string> expected_files;
  for (size_t i = 0; i < images.size(); ++i) {
    const bool test = test_rows.count(i) > 0;
    (test ? expected_test : expected_train).push_back(images[i].id);
    expected_files[(test ? "test/" : "train/") + images[i].id + ".tif"] = images[i].bytes;
  }
  EXPECT_EQ(Ids(train), expected_train);
  EXPECT_EQ(Ids(answers), expected_test);
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  public_files.erase("train_labels.csv");
  public_files.erase("sample_submission.csv");
  EXPECT_EQ(public_files, expected_files);
}

TEST(HistopathologicPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomImages(50, 2), 10);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn (the image
// copies are checked above).
constexpr char kReference[] = R"py(
import sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
old_train = pd.read_csv(raw / "train_labels.csv")
num_test = len(list((raw / "test").glob("*.tif")))
ratio = num_test / (len(old_train) + num_test)
train_ids, test_ids = train_test_split(old_train["id"], test_size=ratio, random_state=0)
new_train = old_train[old_train["id"].isin(train_ids)]
new_test = old_train[old_train["id"].isin(test_ids)]
sample = new_test.copy()
sample["label"] = 0
new_train.to_csv(public / "train_labels.csv", index=False)
new_test.to_csv(private / "answers.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(HistopathologicPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, num_test, seed] :
       std::vector<std::tuple<int, int, uint64_t>>{{2, 1, 10}, {251, 17, 11}, {1500, 700, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomImages(rows, seed), num_test);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* name : {"train_labels.csv", "sample_submission.csv"}) {
      EXPECT_EQ(*ReadFileToString(ours->public_dir / name),
                *ReadFileToString(reference / "public" / name))
          << name;
    }
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(HistopathologicPrepareTest, RunsUpstreamsChecks) {
  // A repeated id lands on both sides.
  std::vector<RawImage> images = RandomImages(30, 4);
  for (RawImage& image : images) image.id = images[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(images, 10)).message(),
              HasSubstr("Train should not contain id's of test images"));
  // A repeated id inside the train side gives fewer files than ids.
  images = RandomImages(40, 5);
  images[1].id = images[0].id;
  images[2].id = images[0].id;
  images[3].id = images[0].id;
  const absl::Status repeated = PrepareStatus(MakeRaw(images, 1));
  EXPECT_THAT(repeated.message(), HasSubstr("id's"));
  // No test images: scikit-learn rejects test_size=0.0.
  EXPECT_THAT(PrepareStatus(MakeRaw(RandomImages(10, 6), 0)).message(), HasSubstr("test_size"));
}

TEST(HistopathologicPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // An image listed in train_labels.csv but absent from train/.
  const std::vector<RawImage> images = RandomImages(10, 7);
  const fs::path missing = MakeRaw(images, 3);
  fs::remove(missing / "train" / (images[4].id + ".tif"));
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr("no file train/" + images[4].id));
  // Ids that are not plain names never reach the file system.
  for (const std::string bad_id : {"../escape", "sub/dir", "..", ""}) {
    SCOPED_TRACE(bad_id);
    const fs::path raw = MakeRaw(RandomImages(10, 8), 3);
    ASSERT_TRUE(
        WriteStringToFile(raw / "train_labels.csv", "id,label\nabc,1\n" + bad_id + ",0\ndef,1\n")
            .ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be an image name"));
  }
  // Numeric ids are not image names either.
  const fs::path numeric = MakeRaw(RandomImages(10, 9), 3);
  ASSERT_TRUE(WriteStringToFile(numeric / "train_labels.csv", "id,label\n1,1\n2,0\n3,1\n").ok());
  EXPECT_THAT(PrepareStatus(numeric).message(), HasSubstr("must be an image name"));
}

}  // namespace
}  // namespace mlebench::prepare_test
