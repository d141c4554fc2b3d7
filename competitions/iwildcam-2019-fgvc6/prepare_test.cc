#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

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
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path SyntheticRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

fs::path RawCopy(uint64_t seed) {
  const fs::path copy = testing::NewTempDir("raw_copy") / "raw";
  fs::copy(SyntheticRaw(seed), copy, fs::copy_options::recursive);
  return copy;
}

std::vector<std::string> Texts(const Table& table, const std::string& column) {
  std::vector<std::string> out;
  for (const Cell& cell : table.Find(column)->cells) out.push_back(std::get<std::string>(cell));
  return out;
}

// The files in a zip, extracted, by name.
std::map<std::string, std::string> ZipContents(const fs::path& zip) {
  const fs::path dir = testing::NewTempDir("unzip");
  EXPECT_TRUE(ExtractZip(zip, dir).ok()) << zip;
  return testing::ReadTree(dir);
}

TEST(IWildCam2019PrepareTest, SplitsByLocation) {
  const fs::path raw = SyntheticRaw(0);
  const Table raw_train = testing::ReadCsvOrFail(raw / "train.csv");
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::FileNames(dirs->public_dir),
            (std::vector<std::string>{"sample_submission.csv", "test.csv", "test_images.zip",
                                      "train.csv", "train_images.zip"}));
  EXPECT_EQ(testing::FileNames(dirs->private_dir),
            (std::vector<std::string>{"answers.csv", "test.csv"}));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table private_test = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), raw_train.ColumnNames());
  EXPECT_EQ(private_test.ColumnNames(), raw_train.ColumnNames());
  std::vector<std::string> test_columns = raw_train.ColumnNames();
  test_columns.erase(test_columns.begin());  // category_id
  EXPECT_EQ(test.ColumnNames(), test_columns);
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "Category"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"Unnamed: 0", "Id", "Category"}));
  EXPECT_EQ(train.num_rows() + test.num_rows(), raw_train.num_rows());
  EXPECT_GT(test.num_rows(), 0u);
  EXPECT_EQ(Texts(answers, "Id"), Texts(test, "id"));
  EXPECT_EQ(Texts(sample, "Id"), Texts(test, "id"));
  // No camera location in both splits.
  std::set<int64_t> train_locations;
  for (const Cell& cell : train.Find("location")->cells) train_locations.insert(std::get<int64_t>(cell));
  for (const Cell& cell : test.Find("location")->cells) {
    EXPECT_EQ(train_locations.count(std::get<int64_t>(cell)), 0u);
  }
  // The zips hold exactly each split's images.
  const std::map<std::string, std::string> raw_images = ZipContents(raw / "train_images.zip");
  for (const auto& [zip, table] :
       {std::pair{"train_images.zip", &train}, std::pair{"test_images.zip", &test}}) {
    std::map<std::string, std::string> expected;
    for (const std::string& id : Texts(*table, "id")) expected[id + ".jpg"] = raw_images.at(id + ".jpg");
    EXPECT_EQ(ZipContents(dirs->public_dir / zip), expected) << zip;
  }
}

TEST(IWildCam2019PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn (CSV outputs).
constexpr char kReference[] = R"py(
import sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
_, test_locations = train_test_split(old["location"].unique(), test_size=0.1, random_state=8)
is_test = old["location"].apply(lambda loc: loc in test_locations)
train, answers = old[~is_test], old[is_test]
test = answers.drop(columns=["category_id"])
gold = answers[["id", "category_id"]].rename(columns={"id": "Id", "category_id": "Category"})
sample = test[["id"]].assign(category_id=0).rename(columns={"id": "Id", "category_id": "Category"})
answers.to_csv(private / "test.csv", index=False)
gold.to_csv(private / "answers.csv", index=False)
train.to_csv(public / "train.csv", index=False)
test.to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=True)
)py";

TEST(IWildCam2019PrepareTest, CsvOutputsMatchPandasByteForByte) {
  for (uint64_t seed : {2, 3}) {
    const fs::path raw = SyntheticRaw(seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> public_files = testing::ReadTree(ours->public_dir);
    public_files.erase("train_images.zip");
    public_files.erase("test_images.zip");
    EXPECT_EQ(public_files, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(IWildCam2019PrepareTest, BadRawDataIsAnError) {
  {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / "train_images.zip");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "id,category_id\nabc,1\n").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // An image missing from the zip: upstream's count assert.
    const fs::path raw = RawCopy(0);
    std::string csv = *ReadFileToString(raw / "train.csv");
    csv += "0,2012-01-01 00:00:00,extra.jpg,1,extra,100,X,s,3,1024,747\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("unique ids"));
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train_images.zip", "not a zip").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
