#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/tar_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Tree = std::map<std::string, std::string>;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kReference[] = "competitions/inaturalist-2019-fgvc6/prepare_reference.py";

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

// The files of the tar `archive`, extracted.
Tree TarTree(const fs::path& archive) {
  const fs::path dir = testing::NewTempDir("tar_tree");
  absl::Status status = ExtractTar(archive, dir);
  EXPECT_TRUE(status.ok()) << status;
  return testing::ReadTree(dir);
}

TEST(INaturalistPrepareTest, SplitsPerCategoryAndTarsTheImages) {
  const fs::path raw = SyntheticRaw(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::FileNames(dirs->public_dir),
            (std::vector<std::string>{"kaggle_sample_submission.csv", "test2019.json",
                                      "test2019.tar.gz", "train2019.json",
                                      "train_val2019.tar.gz", "val2019.json"}));
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"answers.csv"});
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "kaggle_sample_submission.csv");
  EXPECT_EQ(answers.ColumnNames(), (std::vector<std::string>{"id", "predicted"}));
  // Sizes 14,12,1,3,4,9,11,2,16,5: ceil(0.12 n) for n >= 5, 1 for 2-4.
  EXPECT_EQ(answers.num_rows(), 2u + 2 + 0 + 1 + 1 + 2 + 2 + 1 + 2 + 1);
  ASSERT_EQ(sample.num_rows(), answers.num_rows());
  for (size_t i = 0; i < sample.num_rows(); ++i) {
    EXPECT_EQ(sample.Find("id")->cells[i], answers.Find("id")->cells[i]);
    EXPECT_EQ(sample.Find("predicted")->cells[i], sample.Find("predicted")->cells[0]);
  }
  const Tree test_tar = TarTree(dirs->public_dir / "test2019.tar.gz");
  const Tree train_tar = TarTree(dirs->public_dir / "train_val2019.tar.gz");
  EXPECT_EQ(test_tar.size(), answers.num_rows());
  EXPECT_EQ(train_tar.size(), 77u - answers.num_rows());
  for (const auto& [name, bytes] : test_tar) EXPECT_EQ(name.find('/'), std::string::npos);
  for (const auto& [name, bytes] : train_tar) EXPECT_NE(name.rfind("train_val2019", 0), 0u);
  // Not gzip, despite the name: upstream's tarfile.open(out, "w").
  EXPECT_EQ(ReadFileToString(dirs->public_dir / "test2019.tar.gz")->substr(257, 5), "ustar");
  const std::string test_json = *ReadFileToString(dirs->public_dir / "test2019.json");
  EXPECT_THAT(test_json, Not(HasSubstr("category_id")));
  EXPECT_THAT(test_json, HasSubstr("\"file_name\": \"test2019/"));
}

TEST(INaturalistPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

TEST(INaturalistPrepareTest, OutputsMatchPython) {
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
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
    // Byte for byte, except the tars: compared by their files.
    Tree expected_public;
    for (auto& [name, bytes] : testing::ReadTree(reference / "public")) {
      if (name.find('/') == std::string::npos) expected_public[name] = bytes;
    }
    Tree ours_public = testing::ReadTree(ours->public_dir);
    ours_public.erase("test2019.tar.gz");
    ours_public.erase("train_val2019.tar.gz");
    EXPECT_EQ(ours_public, expected_public);
    EXPECT_EQ(TarTree(ours->public_dir / "test2019.tar.gz"),
              testing::ReadTree(reference / "public/test2019"));
    EXPECT_EQ(TarTree(ours->public_dir / "train_val2019.tar.gz"),
              testing::ReadTree(reference / "public/train_val2019"));
  }
}

TEST(INaturalistPrepareTest, BadRawDataIsAnError) {
  for (const char* file : {"train2019.json", "val2019.json", "train_val2019.tar.gz"}) {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / file);
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok()) << file;
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train2019.json", "{\"annotations\": [").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // An image listed in the metadata but absent from the archive.
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteTarGz(raw / "train_val2019.tar.gz", {{"train_val2019/x.jpg", "x"}}).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // Annotations and images out of step: upstream's assert.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "train2019.json");
    const size_t at = text.find("\"image_id\": ");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 12, "9");
    ASSERT_TRUE(WriteStringToFile(raw / "train2019.json", text).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("Mismatching image_id"));
  }
  {
    // A file name leaving the image folder.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "train2019.json");
    const size_t at = text.find("\"train_val2019/");
    ASSERT_NE(at, std::string::npos);
    text.insert(at + 1, "../../");
    ASSERT_TRUE(WriteStringToFile(raw / "train2019.json", text).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
