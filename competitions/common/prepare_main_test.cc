#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kBinary[] = "competitions/common/prepare_main_test_binary";

class PrepareMainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::NewTempDir("prepare_main");
    fs::create_directories(root_ / "raw");
    ASSERT_TRUE(WriteStringToFile(root_ / "raw" / "in.txt", "hello").ok());
  }
  testing::CommandResult Prepare(std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {kBinary,        "--competition",
                                     "fake-competition", "--raw",
                                     (root_ / "raw").string(), "--public",
                                     (root_ / "out" / "public").string(), "--private",
                                     (root_ / "out" / "private").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::RunCommand(argv);
  }
  std::string ScratchPath() {
    absl::StatusOr<std::string> path = ReadFileToString(root_ / "out" / "private" / "scratch_path.txt");
    return path.ok() ? *path : "";
  }
  fs::path root_;
};

TEST_F(PrepareMainTest, CreatesOutputDirsAndRemovesItsScratch) {
  const testing::CommandResult result = Prepare();
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("prepare: fake-competition: 1 files in"));
  EXPECT_TRUE(fs::exists(root_ / "out" / "public" / "in.txt"));
  EXPECT_TRUE(fs::exists(root_ / "out" / "private" / "in.txt"));
  const std::string scratch = ScratchPath();
  ASSERT_FALSE(scratch.empty());
  EXPECT_FALSE(fs::exists(scratch));
}

TEST_F(PrepareMainTest, RemovesItsScratchOnFailureToo) {
  ASSERT_TRUE(WriteStringToFile(root_ / "raw" / "fail", "").ok());
  const testing::CommandResult result = Prepare();
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("fake-competition: raw/fail exists"));
  const std::string scratch = ScratchPath();
  ASSERT_FALSE(scratch.empty());
  EXPECT_FALSE(fs::exists(scratch));
}

TEST_F(PrepareMainTest, KeepsAGivenScratch) {
  const fs::path scratch = root_ / "my_scratch";
  const testing::CommandResult result = Prepare({"--scratch", scratch.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(ScratchPath(), scratch.string());
  EXPECT_TRUE(fs::exists(scratch / "leftover.txt"));
}

TEST_F(PrepareMainTest, RejectsANonEmptyScratch) {
  const fs::path scratch = root_ / "my_scratch";
  fs::create_directories(scratch);
  ASSERT_TRUE(WriteStringToFile(scratch / "old.txt", "").ok());
  const testing::CommandResult result = Prepare({"--scratch", scratch.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("must be empty"));
}

TEST_F(PrepareMainTest, RejectsUnknownCompetitionsAndMissingFlags) {
  testing::CommandResult result = testing::RunCommand(
      {kBinary, "--competition", "nope", "--raw", (root_ / "raw").string(), "--public",
       (root_ / "p").string(), "--private", (root_ / "q").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("no preparer registered for 'nope'"));
  result = testing::RunCommand({kBinary, "--competition", "fake-competition"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("raw"));
  result = Prepare({"--bogus", "1"});
  EXPECT_EQ(result.exit_code, 1);
}

// The content-mode forms: outputs where the action says, the dataset named,
// nothing written beside the inputs.
TEST_F(PrepareMainTest, PreparesRawInputsAndWritesTheDataset) {
  const fs::path dataset = root_ / "out" / "dataset.txt";
  const testing::CommandResult result = Prepare({"--dataset_out", dataset.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("prepared kaggle data from"));
  EXPECT_EQ(*ReadFileToString(dataset), "kaggle\n");
  EXPECT_TRUE(fs::exists(root_ / "out" / "private" / "in.txt"));
  EXPECT_FALSE(fs::exists(root_ / "prepared"));
}

TEST_F(PrepareMainTest, ChecksPreparedInputsTakenAsIs) {
  const fs::path prepared = root_ / "prepared";
  fs::create_directories(prepared / "public");
  fs::create_directories(prepared / "private");
  ASSERT_TRUE(WriteStringToFile(prepared / "public" / "sample.csv", "id\n").ok());
  const fs::path dataset = root_ / "dataset.txt";
  std::vector<std::string> argv = {kBinary,       "--competition",      "fake-competition",
                                   "--prepared",  prepared.string(),    "--answers",
                                   "private/a.csv", "--sample_submission", "public/sample.csv",
                                   "--dataset_out", dataset.string()};
  testing::CommandResult result = testing::RunCommand(argv);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("is incomplete"));
  ASSERT_TRUE(WriteStringToFile(prepared / "private" / "a.csv", "x\n").ok());
  result = testing::RunCommand(argv);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("took the prepared data as is (kaggle)"));
  EXPECT_EQ(*ReadFileToString(dataset), "kaggle\n");
}

TEST_F(PrepareMainTest, RejectsMixedForms) {
  testing::CommandResult result = Prepare({"--prepared", root_.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("give one of --raw, --raw_zip, --prepared and --data_dir"));
  result = Prepare({"--raw_zip", (root_ / "x.zip").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("give one of"));
}

TEST_F(PrepareMainTest, RejectsAMissingRawDir) {
  fs::remove_all(root_ / "raw");
  const testing::CommandResult result = Prepare();
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("is not a directory"));
}

}  // namespace
}  // namespace mlebench
