#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path SyntheticRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

std::vector<std::string> Texts(const Table& table, const std::string& column) {
  std::vector<std::string> out;
  for (const Cell& cell : table.Find(column)->cells) out.push_back(std::get<std::string>(cell));
  return out;
}

TEST(WhalePrepareTest, SplitsRowsAndImages) {
  const fs::path raw = SyntheticRaw(0);
  const Table raw_train = testing::ReadCsvOrFail(raw / "train.csv");
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const std::vector<std::string> columns = {"Image", "Id"};
  EXPECT_EQ(train.ColumnNames(), columns);
  EXPECT_EQ(answers.ColumnNames(), columns);
  EXPECT_EQ(sample.ColumnNames(), columns);
  EXPECT_EQ(train.num_rows() + answers.num_rows(), raw_train.num_rows());
  EXPECT_GT(answers.num_rows(), raw_train.num_rows() / 20);
  EXPECT_LT(answers.num_rows(), raw_train.num_rows() / 3);
  EXPECT_EQ(Texts(sample, "Image"), Texts(answers, "Image"));
  for (const std::string& ids : Texts(sample, "Id")) {
    EXPECT_EQ(ids, "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46");
  }

  // Every whale with two or more photos is in both splits; a test whale
  // unseen in train is new_whale.
  std::map<std::string, int> photos;
  for (const std::string& whale : Texts(raw_train, "Id")) ++photos[whale];
  const std::vector<std::string> train_ids = Texts(train, "Id");
  const std::set<std::string> train_whales(train_ids.begin(), train_ids.end());
  for (const auto& [whale, count] : photos) {
    if (count >= 2) {
      EXPECT_EQ(train_whales.count(whale), 1u) << whale;
    }
  }
  bool has_new_whale = false;
  for (const std::string& whale : Texts(answers, "Id")) {
    EXPECT_TRUE(whale == "new_whale" || train_whales.count(whale) == 1) << whale;
    has_new_whale = has_new_whale || whale == "new_whale";
  }
  EXPECT_TRUE(has_new_whale);

  std::map<std::string, std::string> expected;
  for (const std::string& image : Texts(train, "Image")) {
    expected["train/" + image] = *ReadFileToString(raw / "train" / image);
  }
  for (const std::string& image : Texts(answers, "Image")) {
    expected["test/" + image] = *ReadFileToString(raw / "train" / image);
  }
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  public_files.erase("train.csv");
  public_files.erase("sample_submission.csv");
  EXPECT_EQ(public_files, expected);
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).size(), 1u);
}

TEST(WhalePrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas, numpy and scikit-learn.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
old["split"] = "undecided"
rng = np.random.default_rng(0)
for whale in old["Id"].unique():
    rows = old[old["Id"] == whale]
    if len(rows) >= 2:
        picked = rows.sample(2, random_state=0)
        old.loc[picked.index[0], "split"] = "train"
        old.loc[picked.index[1], "split"] = "test"
    else:
        old.loc[rows.index[0], "split"] = rng.choice(["train", "test"], replace=False, p=[0.9, 0.1])
rest = old[old["split"] == "undecided"]
train, test = train_test_split(rest, test_size=0.1, random_state=0)
old.loc[train.index, "split"] = "train"
old.loc[test.index, "split"] = "test"
new_train = old[old["split"] == "train"].drop(columns=["split"]).copy()
answers = old[old["split"] == "test"].drop(columns=["split"]).copy()
answers.loc[answers["Id"].isin(set(answers["Id"]) - set(new_train["Id"])), "Id"] = "new_whale"
sample = answers.copy()
sample["Id"] = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"
answers.to_csv(private / "test.csv", index=False)
new_train.to_csv(public / "train.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for folder, frame in (("train", new_train), ("test", answers)):
    (public / folder).mkdir()
    for image in frame["Image"]:
        shutil.copyfile(raw / "train" / image, public / folder / image)
)py";

TEST(WhalePrepareTest, OutputsMatchPandasByteForByte) {
  for (uint64_t seed : {2, 3}) {
    const fs::path raw = SyntheticRaw(seed);
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

absl::Status PrepareCsv(const std::string& csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  return PrepareStatus(raw);
}

TEST(WhalePrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A listed photo missing from train/.
  const fs::path missing = SyntheticRaw(4);
  const std::string first = Texts(testing::ReadCsvOrFail(missing / "train.csv"), "Image")[0];
  fs::remove(missing / "train" / first);
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr(first));
  // Columns: both needed, nothing else.
  EXPECT_FALSE(PrepareCsv("Image\na.jpg\n").ok());
  EXPECT_THAT(PrepareCsv("Image,Id,x\na.jpg,w_1,1\nb.jpg,w_1,1\n").message(),
              HasSubstr("exactly 2 columns"));
  // Names that would reach outside the folders; ids that are not text.
  EXPECT_THAT(PrepareCsv("Image,Id\n../a.jpg,w_1\nb.jpg,w_1\n").message(),
              HasSubstr("must be an image file name"));
  EXPECT_THAT(PrepareCsv("Image,Id\na.jpg,1\nb.jpg,1\n").message(), HasSubstr("must be text"));
  // Two photos of one whale and nothing left over: train_test_split of no
  // rows fails, as scikit-learn's does.
  EXPECT_FALSE(PrepareCsv("Image,Id\na.jpg,w_1\nb.jpg,w_1\n").ok());
  // No new_whale in the answers.
  std::string csv = "Image,Id\n";
  for (int i = 0; i < 30; ++i) csv += "p" + std::to_string(i) + ".jpg,w_" + std::to_string(i % 3) + "\n";
  EXPECT_THAT(PrepareCsv(csv).message(), HasSubstr("new_whale"));
  // A photo listed twice in one split, or not a .jpg: upstream's file counts.
  csv = "Image,Id\n";
  for (int i = 0; i < 30; ++i) csv += "p.jpg,new_whale\n";
  EXPECT_THAT(PrepareCsv(csv).message(), HasSubstr("same number of images"));
  csv = "Image,Id\n";
  for (int i = 0; i < 30; ++i) csv += "p" + std::to_string(i) + ".png,new_whale\n";
  EXPECT_THAT(PrepareCsv(csv).message(), HasSubstr("same number of images"));
}

}  // namespace
}  // namespace mlebench::prepare_test
