// The prepare tests that herbarium-2020-fgvc7 and herbarium-2021-fgvc8 share
// (one upstream prepare.py, herbarium_prepare.h): each package's
// prepare_test instantiates HerbariumPrepareTest with its layout.
#include "competitions/families/fgvc/herbarium_prepare_test_cases.h"

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

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kReference[] = "competitions/families/fgvc/prepare_reference.py";

// `relative` under the download's root folder.
std::string In(const HerbariumLayout& layout, const std::string& relative) {
  return layout.root[0] == '\0' ? relative : std::string(layout.root) + "/" + relative;
}

fs::path SyntheticRaw(const char* id, uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(id, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.ok() ? *raw : fs::path();
}

// A copy of the synthetic raw data that a test may change.
fs::path RawCopy(const char* id, uint64_t seed) {
  const fs::path copy = testing::NewTempDir("raw_copy") / "raw";
  fs::copy(SyntheticRaw(id, seed), copy, fs::copy_options::recursive);
  return copy;
}

TEST_P(HerbariumPrepareTest, WritesUpstreamsFilesAndSplitsPerCategory) {
  const fs::path raw = SyntheticRaw(GetParam().id, 0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(GetParam().id, raw);
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
    train_images += name.rfind(In(GetParam(), "train/images/"), 0) == 0;
    test_images += name.rfind(In(GetParam(), "test/images/000/"), 0) == 0;
  }
  EXPECT_EQ(train_images + test_images, 106u);
  EXPECT_EQ(test_images, answers.num_rows());
  EXPECT_EQ(public_files.size(), 106u + 3u);
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});
  // The public test metadata hides the labels and the category list.
  const std::string test_metadata =
      *ReadFileToString(dirs->public_dir / In(GetParam(), "test/metadata.json"));
  EXPECT_THAT(test_metadata, Not(HasSubstr("category_id")));
  EXPECT_THAT(test_metadata, Not(HasSubstr(GetParam().dropped_test_key)));
  EXPECT_THAT(test_metadata, HasSubstr("\"file_name\": \"images/000/0.jpg\""));
}

TEST_P(HerbariumPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(GetParam().id, 1);
  testing::ExpectDeterministicAndRawUntouched(GetParam().id, raw);
}

TEST_P(HerbariumPrepareTest, OutputsMatchPythonByteForByte) {
  for (uint64_t seed : {2, 3}) {
    const fs::path raw = SyntheticRaw(GetParam().id, seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(GetParam().id, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run =
        testing::RunPythonFile(kReference, {raw.string(), (reference / "public").string(),
                                            (reference / "private").string(), GetParam().root,
                                            GetParam().encoding, GetParam().dropped_test_key});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST_P(HerbariumPrepareTest, BadRawDataIsAnError) {
  {
    const fs::path raw = RawCopy(GetParam().id, 0);
    fs::remove(raw / In(GetParam(), "train/metadata.json"));
    EXPECT_FALSE(testing::RunPreparer(GetParam().id, raw).ok());
  }
  {
    const fs::path raw = RawCopy(GetParam().id, 0);
    ASSERT_TRUE(WriteStringToFile(raw / In(GetParam(), "train/metadata.json"), "{\"annotations\": [").ok());
    EXPECT_FALSE(testing::RunPreparer(GetParam().id, raw).ok());
  }
  {
    // A missing image file.
    const fs::path raw = RawCopy(GetParam().id, 0);
    fs::remove_all(raw / In(GetParam(), "train/images/000"));
    EXPECT_FALSE(testing::RunPreparer(GetParam().id, raw).ok());
  }
  {
    // Annotations and images out of step: upstream's assert.
    const fs::path raw = RawCopy(GetParam().id, 0);
    std::string text = *ReadFileToString(raw / In(GetParam(), "train/metadata.json"));
    const size_t at = text.find("\"image_id\": ");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 12, "9");
    ASSERT_TRUE(WriteStringToFile(raw / In(GetParam(), "train/metadata.json"), text).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(GetParam().id, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("Mismatching image_id"));
  }
  {
    // A file name leaving the raw folder.
    const fs::path raw = RawCopy(GetParam().id, 0);
    std::string text = *ReadFileToString(raw / In(GetParam(), "train/metadata.json"));
    const size_t at = text.find("\"images/");
    ASSERT_NE(at, std::string::npos);
    text.replace(at + 1, 7, "../../x");
    ASSERT_TRUE(WriteStringToFile(raw / In(GetParam(), "train/metadata.json"), text).ok());
    EXPECT_FALSE(testing::RunPreparer(GetParam().id, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench
