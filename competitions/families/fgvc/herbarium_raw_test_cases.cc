#include "competitions/families/fgvc/herbarium_raw_test_cases.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// `relative` under the download's root folder.
std::string In(const HerbariumLayout& layout, const std::string& relative) {
  return layout.root[0] == '\0' ? relative : std::string(layout.root) + "/" + relative;
}

TEST_P(HerbariumRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  const HerbariumLayout& layout = GetParam();
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(layout.id);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train = 0, test = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind(In(layout, "train/images/"), 0) == 0;
    test += name.rfind(In(layout, "test/images/"), 0) == 0;
  }
  EXPECT_EQ(train, 106u);
  EXPECT_EQ(test, 6u);
  EXPECT_EQ(tree->size(), 106u + 6u + 3u);
  EXPECT_EQ(tree->at("sample_submission.csv").substr(0, 17), "Id,Predicted\n0,0\n");
  // Kaggle's metadata spells accented letters in the encoding upstream reads.
  EXPECT_NE(tree->at(In(layout, "train/metadata.json")).find(layout.accented_e), std::string::npos);
  EXPECT_LT(total, 1'000'000u);
}

TEST_P(HerbariumRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  const HerbariumLayout& layout = GetParam();
  absl::StatusOr<std::string> script =
      ReadFileToString("competitions/families/fgvc/check_raw.py");
  ASSERT_TRUE(script.ok()) << script.status();
  for (uint64_t seed : {0, 3}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(layout.id, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(
        *script, {raw->string(), layout.root, layout.encoding, layout.dropped_test_key});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench
