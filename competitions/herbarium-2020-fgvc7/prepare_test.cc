#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testdata/common/files.h"
#include "testdata/common/test_util.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kId[] = "herbarium-2020-fgvc7";
constexpr char kReference[] = "competitions/herbarium-2020-fgvc7/prepare_reference.py";

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

TEST(Herbarium2020PrepareTest, WritesUpstreamsFilesAndSplitsPerCategory) {
  const fs::path raw = SyntheticRaw(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"Id", "Predicted"}));
  EXPECT_EQ(sample.ColumnNames(), (std::vector<std::string>{"Id", "Predicted"}));
  // Test counts per category: sizes 16,14,1,18,3,15,4,5,17,13 give
  // ceil(0.2 n) for n >= 5, 1 for 3 and 4, none for 1.
  EXPECT_EQ(answers.num_rows(), 4u + 3 + 0 + 4 + 1 + 3 + 1 + 1 + 4 + 3);
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  for (size_t i = 0; i < answers.num_rows(); ++i) {
    EXPECT_EQ(std::get<int64_t>(answers.Find("Id")->cells[i]), static_cast<int64_t>(i));
    EXPECT_EQ(std::get<int64_t>(sample.Find("Predicted")->cells[i]), 0);
  }
  const std::vector<std::string> public_files = testing::FileNames(dirs->public_dir);
  size_t train_images = 0, test_images = 0;
  for (const std::string& name : public_files) {
    train_images += name.rfind("nybg2020/train/images/", 0) == 0;
    test_images += name.rfind("nybg2020/test/images/000/", 0) == 0;
  }
  EXPECT_EQ(train_images + test_images, 106u);
  EXPECT_EQ(test_images, answers.num_rows());
  EXPECT_EQ(public_files.size(), 106u + 3u);
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});
  // The public test metadata hides the labels and the category list.
  const std::string test_metadata =
      *ReadFileToString(dirs->public_dir / "nybg2020/test/metadata.json");
  EXPECT_THAT(test_metadata, Not(HasSubstr("category_id")));
  EXPECT_THAT(test_metadata, Not(HasSubstr("regions")));
  EXPECT_THAT(test_metadata, HasSubstr("\"file_name\": \"images/000/0.jpg\""));
}

TEST(Herbarium2020PrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  const auto raw_before = testing::ReadTree(raw);
  absl::StatusOr<testing::PreparedDirs> first = testing::RunPreparer(kId, raw);
  absl::StatusOr<testing::PreparedDirs> second = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(testing::ReadTree(first->public_dir), testing::ReadTree(second->public_dir));
  EXPECT_EQ(testing::ReadTree(first->private_dir), testing::ReadTree(second->private_dir));
  EXPECT_EQ(testing::ReadTree(raw), raw_before);
}

TEST(Herbarium2020PrepareTest, OutputsMatchPythonByteForByte) {
  for (uint64_t seed : {2, 3}) {
    const fs::path raw = SyntheticRaw(seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunCommand(
        {"/usr/bin/python3", kReference, raw.string(), (reference / "public").string(),
         (reference / "private").string(), "nybg2020", "latin-1", "regions"});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(Herbarium2020PrepareTest, BadRawDataIsAnError) {
  {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / "nybg2020/train/metadata.json");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "nybg2020/train/metadata.json", "{\"annotations\": [").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // A missing image file.
    const fs::path raw = RawCopy(0);
    fs::remove_all(raw / "nybg2020/train/images/000");
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // Annotations and images out of step: upstream's assert.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "nybg2020/train/metadata.json");
    const size_t at = text.find("\"image_id\": ");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 12, "9");
    ASSERT_TRUE(WriteStringToFile(raw / "nybg2020/train/metadata.json", text).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("Mismatching image_id"));
  }
  {
    // A file name leaving the raw folder.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "nybg2020/train/metadata.json");
    const size_t at = text.find("\"images/");
    ASSERT_NE(at, std::string::npos);
    text.replace(at + 1, 7, "../../x");
    ASSERT_TRUE(WriteStringToFile(raw / "nybg2020/train/metadata.json", text).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench
