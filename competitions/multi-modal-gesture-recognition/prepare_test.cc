#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
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

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kReference[] = "competitions/multi-modal-gesture-recognition/prepare_reference.py";

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

TEST(GesturePrepareTest, Training4BecomesTheTestSet) {
  const fs::path raw = SyntheticRaw(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::FileNames(dirs->public_dir),
            (std::vector<std::string>{
                "devel01-40.7z", "randomPredictions.csv", "sample_code_mmrgc.zip", "test.csv",
                "test.tar.gz", "training.csv", "training1.tar.gz", "training2.tar.gz",
                "training3.tar.gz", "valid_all_files_combined.7z", "validation1.tar.gz",
                "validation2.tar.gz", "validation3.tar.gz"}));
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"test.csv"});
  // Samples 1-21 stay in training; training4 holds samples 22-28.
  const std::string public_test = *ReadFileToString(dirs->public_dir / "test.csv");
  EXPECT_EQ(public_test, "Id\n0022\n0023\n0024\n0025\n0026\n0027\n0028\n");
  const std::string answers = *ReadFileToString(dirs->private_dir / "test.csv");
  EXPECT_EQ(answers.substr(0, 17), "Id,Sequence\n0022,");
  const Table training = testing::ReadCsvOrFail(dirs->public_dir / "training.csv");
  EXPECT_EQ(training.num_rows(), 21u);
  const Table random = testing::ReadCsvOrFail(dirs->public_dir / "randomPredictions.csv");
  ASSERT_EQ(random.num_rows(), 7u);
  // Each prediction is a permutation of 1..20.
  for (const Cell& cell : random.Find("Sequence")->cells) {
    std::vector<std::string> tokens = absl::StrSplit(std::get<std::string>(cell), ' ');
    std::sort(tokens.begin(), tokens.end());
    EXPECT_EQ(tokens.size(), 20u);
    EXPECT_EQ(std::unique(tokens.begin(), tokens.end()), tokens.end());
  }
  EXPECT_EQ(*ReadFileToString(dirs->public_dir / "test.tar.gz"),
            *ReadFileToString(raw / "training4.tar.gz"));
}

TEST(GesturePrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = SyntheticRaw(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

TEST(GesturePrepareTest, OutputsMatchPythonByteForByte) {
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

TEST(GesturePrepareTest, BadRawDataIsAnError) {
  for (const char* file : {"training4.tar.gz", "training.csv", "validation2.tar.gz",
                           "devel01-40.7z", "sample_code_mmrgc.zip"}) {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / file);
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok()) << file;
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "training4.tar.gz", "not a tar").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    // A training4 video missing from training.csv: upstream's assert.
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteTarGz(raw / "training4.tar.gz", {{"Sample09999.zip", "zip"}}).ok());
    absl::StatusOr<testing::PreparedDirs> result = testing::RunPreparer(kId, raw);
    ASSERT_FALSE(result.ok());
    EXPECT_THAT(std::string(result.status().message()), HasSubstr("Expected"));
  }
  {
    // A test id listed twice in training.csv.
    const fs::path raw = RawCopy(0);
    std::string text = *ReadFileToString(raw / "training.csv");
    text += "0022,1 2 3\n";
    ASSERT_TRUE(WriteStringToFile(raw / "training.csv", text).ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "training.csv", "Video,Sequence\n0001,1 2\n").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
