#include <filesystem>
#include <map>
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

TEST(HotelIdPrepareTest, SplitsRowsAndImages) {
  const fs::path raw = SyntheticRaw(0);
  const Table raw_train = testing::ReadCsvOrFail(raw / "train.csv");
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const std::vector<std::string> columns = {"image", "chain", "hotel_id", "timestamp"};
  EXPECT_EQ(train.ColumnNames(), columns);
  EXPECT_EQ(answers.ColumnNames(), columns);
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"image", "hotel_id"}));
  // The repeated image's two rows are dropped; ceil(10%) of the rest is test.
  const size_t kept = raw_train.num_rows() - 2;
  EXPECT_EQ(answers.num_rows(), (kept + 9) / 10);
  EXPECT_EQ(train.num_rows() + answers.num_rows(), kept);
  EXPECT_EQ(Texts(sample, "image"), Texts(answers, "image"));
  for (const std::string& ids : Texts(sample, "hotel_id")) EXPECT_EQ(ids, "36363 53586 18807 64314 60181");

  std::map<std::string, std::string> expected_public;
  const Column& train_chains = *train.Find("chain");
  const std::vector<std::string> train_images = Texts(train, "image");
  for (size_t i = 0; i < train_images.size(); ++i) {
    const std::string chain = std::to_string(std::get<int64_t>(train_chains.cells[i]));
    expected_public["train_images/" + chain + "/" + train_images[i]] =
        *ReadFileToString(raw / "train_images" / chain / train_images[i]);
  }
  const Column& test_chains = *answers.Find("chain");
  const std::vector<std::string> test_images = Texts(answers, "image");
  for (size_t i = 0; i < test_images.size(); ++i) {
    const std::string chain = std::to_string(std::get<int64_t>(test_chains.cells[i]));
    expected_public["test_images/" + test_images[i]] =
        *ReadFileToString(raw / "train_images" / chain / test_images[i]);
  }
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  public_files.erase("train.csv");
  public_files.erase("sample_submission.csv");
  EXPECT_EQ(public_files, expected_public);
  for (const std::string& image : test_images) {
    EXPECT_EQ(std::count(train_images.begin(), train_images.end(), image), 0) << image;
  }
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).size(), 1u);
}

TEST(HotelIdPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
old = old[old["image"] != "ce27d36c9147cc19.jpg"]
train, test = train_test_split(old, test_size=0.1, random_state=0)
sample = test.copy()[["image", "hotel_id"]]
sample["hotel_id"] = "36363 53586 18807 64314 60181"
train.to_csv(public / "train.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for image, chain in zip(train["image"], train["chain"]):
    (public / "train_images" / str(chain)).mkdir(exist_ok=True, parents=True)
    shutil.copy(raw / "train_images" / str(chain) / image, public / "train_images" / str(chain) / image)
(public / "test_images").mkdir(exist_ok=True, parents=True)
for image, chain in zip(test["image"], test["chain"]):
    shutil.copy(raw / "train_images" / str(chain) / image, public / "test_images" / image)
test.to_csv(private / "test.csv", index=False)
)py";

TEST(HotelIdPrepareTest, OutputsMatchPandasByteForByte) {
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

TEST(HotelIdPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A listed photo missing from train_images/.
  const fs::path missing = SyntheticRaw(4);
  const Table rows = testing::ReadCsvOrFail(missing / "train.csv");
  const std::string first_image = std::get<std::string>(rows.Find("image")->cells[0]);
  const std::string first_chain = std::to_string(std::get<int64_t>(rows.Find("chain")->cells[0]));
  fs::remove(missing / "train_images" / first_chain / first_image);
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr(first_image));
  // No `chain` column.
  const fs::path no_chain = testing::NewTempDir("no_chain");
  ASSERT_TRUE(WriteStringToFile(no_chain / "train.csv", "image,hotel_id\na.jpg,1\nb.jpg,2\n").ok());
  EXPECT_FALSE(PrepareStatus(no_chain).ok());
  // Names that would reach outside the image folders.
  for (const std::string csv : {"image,chain,hotel_id\n../x.jpg,1,1\n../x.jpg,1,1\n",
                                "image,chain,hotel_id\na.jpg,..,1\na.jpg,..,1\n"}) {
    const fs::path raw = testing::NewTempDir("bad_name");
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must"));
  }
  // An image in both splits: upstream's overlap check.
  const fs::path overlap = testing::NewTempDir("overlap");
  fs::create_directories(overlap / "train_images" / "1");
  ASSERT_TRUE(WriteStringToFile(overlap / "train_images" / "1" / "a.jpg", "x").ok());
  std::string csv = "image,chain,hotel_id\n";
  for (int i = 0; i < 20; ++i) csv += "a.jpg,1," + std::to_string(i) + "\n";
  ASSERT_TRUE(WriteStringToFile(overlap / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(overlap).message(), HasSubstr("Train and test ids overlap"));
}

}  // namespace
}  // namespace mlebench::prepare_test
