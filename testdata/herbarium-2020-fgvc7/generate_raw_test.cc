#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "gtest/gtest.h"
#include "testdata/common/files.h"
#include "testdata/common/test_util.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = "herbarium-2020-fgvc7";

TEST(Herbarium2020RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train = 0, test = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind("nybg2020/train/images/", 0) == 0;
    test += name.rfind("nybg2020/test/images/", 0) == 0;
  }
  EXPECT_EQ(train, 106u);
  EXPECT_EQ(test, 6u);
  EXPECT_EQ(tree->size(), 106u + 6u + 3u);
  EXPECT_EQ(tree->at("sample_submission.csv").substr(0, 17), "Id,Predicted\n0,0\n");
  // Kaggle's 2020 metadata holds latin-1 bytes (upstream reads it as latin-1).
  EXPECT_NE(tree->at("nybg2020/train/metadata.json").find('\xe9'), std::string::npos);
  EXPECT_LT(total, 1'000'000u);
}

TEST(Herbarium2020RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  absl::StatusOr<std::string> script =
      ReadFileToString("testdata/herbarium-2020-fgvc7/check_raw.py");
  ASSERT_TRUE(script.ok()) << script.status();
  for (uint64_t seed : {0, 3}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result =
        testing::RunPython(*script, {raw->string(), "nybg2020", "latin-1", "regions"});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench
