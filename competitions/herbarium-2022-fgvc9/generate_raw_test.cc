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

TEST(Herbarium2022RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train = 0, test = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind("train_images/", 0) == 0;
    test += name.rfind("test_images/000/test-", 0) == 0;
  }
  EXPECT_EQ(train, 74u);
  EXPECT_EQ(test, 6u);
  EXPECT_EQ(tree->size(), 74u + 6u + 3u);
  EXPECT_EQ(tree->count("train_images/012/34/01234__004.jpg"), 1u);
  EXPECT_EQ(tree->at("sample_submission.csv").substr(0, 18), "Id,Predicted\n0,42\n");
  EXPECT_LT(total, 1'000'000u);
}

TEST(Herbarium2022RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  absl::StatusOr<std::string> script =
      ReadFileToString("competitions/herbarium-2022-fgvc9/check_raw.py");
  ASSERT_TRUE(script.ok()) << script.status();
  for (uint64_t seed : {0, 3}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(*script, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
