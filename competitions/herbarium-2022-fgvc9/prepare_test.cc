#include <filesystem>
#include <map>
#include <string>
#include <vector>

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
constexpr char kReference[] = "competitions/herbarium-2022-fgvc9/prepare_reference.py";

fs::path SyntheticRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

// A copy of the synthetic raw data that a test may change.
fs::path RawCopy(uint64_t seed) {
  const fs::path copy = testing::NewTempDir("raw_copy") / "raw";
  fs::copy(SyntheticRaw(seed), copy, fs::copy_options::recursive);
  return copy;
}

TEST(Herbarium2022PrepareTest, WritesUpstreamsFilesAndSplitsEveryCategory) {
  const fs::path raw = SyntheticRaw(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "Predicted"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"Id", "Predicted"}));
  // Category sizes 12,10,2,14,3,11,4,5,13: ceil(0.2 n) test images each.
  EXPECT_EQ(answers.num_rows(), 3u + 2 + 1 + 3 + 1 + 3 + 1 + 1 + 3);
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  for (size_t i = 0; i < answers.num_rows(); ++i) {
    EXPECT_EQ(std::get<int64_t>(answers.Find("Id")->cells[i]), static_cast<int64_t>(i));
    EXPECT_EQ(std::get<int64_t>(sample.Find("Predicted")->cells[i]), 42);
  }
  const std::vector<std::string> public_files = testing::FileNames(dirs->public_dir);
  size_t train_images = 0, test_images = 0;
  for (const std::string& name : public_files) {
    train_images += name.rfind("train_images/", 0) == 0;
    test_images += name.rfind("test_images/000/test-0000", 0) == 0;
  }
  EXPECT_EQ(train_images + test_images, 74u);
  EXPECT_EQ(test_images, answers.num_rows());
  EXPECT_EQ(public_files.size(), 74u + 3u);
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});
  // Train images are renumbered within their category, from 1.
  EXPECT_TRUE(fs::exists(dirs->public_dir / "train_images/012/34/01234__001.jpg"));
  EXPECT_TRUE(fs::exists(dirs->public_dir / "train_images/000/42/00042__001.jpg"));
  EXPECT_FALSE(fs::exists(dirs->public_dir / "train_images/000/42/00042__002.jpg"));
  // The public test metadata is a bare list of images, without labels.
  const std::string test_metadata = *ReadFileToString(dirs->public_dir / "test_metadata.json");
  EXPECT_EQ(test_metadata.substr(0, 7), "[\n    {");
  EXPECT_THAT(test_metadata, Not(HasSubstr("category_id")));
  EXPECT_THAT(test_metadata, HasSubstr("\"file_name\": \"000/test-000000.jpg\""));
}

TEST(Herbarium2022PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

TEST(Herbarium2022PrepareTest, OutputsMatchPythonByteForByte) {
  for (uint64_t seed : {2, 3}) {
    const fs::path raw = SyntheticRaw(seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPythonFile(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(Herbarium2022PrepareTest, BadRawDataIsAnError) {
  {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / "train_metadata.json");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", "{\"annotations\": [").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // A missing image file.
    const fs::path raw = RawCopy(0);
    fs::remove_all(raw / "train_images/000");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // Annotations and images out of step: upstream's assert.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "train_metadata.json");
    const size_t at = text.find("\"image_id\": \"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 13, "9");
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", text).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("Mismatching image_id"));
  }
  {
    // A category with a single image: sklearn's train_test_split raises.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "train_metadata.json");
    const size_t at = text.find("\"category_id\": 0,");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 16, "\"category_id\": 77777");
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", text).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("77777"));
  }
  {
    // A file name leaving the raw folder.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "train_metadata.json");
    const size_t at = text.find("\"file_name\": \"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 14, "../../");
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", text).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
