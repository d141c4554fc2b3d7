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

TEST_F(PrepareMainTest, RejectsAMissingRawDir) {
  fs::remove_all(root_ / "raw");
  const testing::CommandResult result = Prepare();
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("is not a directory"));
}

}  // namespace
}  // namespace mlebench
