#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(INaturalistRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"kaggle_sample_submission.csv", "test2019.json",
                                             "test2019.tar.gz", "train2019.json",
                                             "train_val2019.tar.gz", "val2019.json"}));
  EXPECT_EQ(tree->at("kaggle_sample_submission.csv").substr(0, 24), "id,predicted\n0,0 1 2 3 4");
  EXPECT_LT(total, 1'000'000u);
}

TEST(INaturalistRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  absl::StatusOr<std::string> script =
      ReadFileToString("competitions/inaturalist-2019-fgvc6/check_raw.py");
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
