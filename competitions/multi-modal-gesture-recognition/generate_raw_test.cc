#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(GestureRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{
                       "devel01-40.7z", "randomPredictions.csv", "sample_code_mmrgc.zip",
                       "test.csv", "training.csv", "training1.tar.gz", "training2.tar.gz",
                       "training3.tar.gz", "training4.tar.gz", "valid_all_files_combined.7z",
                       "validation1.tar.gz", "validation2.tar.gz", "validation3.tar.gz"}));
  EXPECT_EQ(tree->at("training.csv").substr(0, 17), "Id,Sequence\n0001,");
  EXPECT_EQ(tree->at("training1.tar.gz").substr(0, 2), "\x1f\x8b");
  EXPECT_LT(total, 3'000'000u);
}

TEST(GestureRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  absl::StatusOr<std::string> script =
      ReadFileToString("competitions/multi-modal-gesture-recognition/check_raw.py");
  ASSERT_TRUE(script.ok()) << script.status();
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(*script, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
