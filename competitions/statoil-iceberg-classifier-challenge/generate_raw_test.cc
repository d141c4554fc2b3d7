#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/seven_zip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(StatoilRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv.7z", "test.json.7z", "train.json.7z"));
  EXPECT_LT(total, 3'000'000u);
}

// Our 7z reader finds Kaggle's archive layout; Python's json and pandas read
// the contents with Kaggle's field names and types; the brightest band_1
// pixel separates icebergs from ships (AUC > 0.8 for its negation) while the
// sample submission's constant scores 0.5.
constexpr char kCheckScript[] = R"py(
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

out = Path(sys.argv[1])
train = json.load((out / "data/processed/train.json").open())
test = json.load((out / "data/processed/test.json").open())
sample = pd.read_csv(out / "sample_submission.csv")
assert len(train) == 240 and len(test) == 80
assert all(list(s.keys()) == ["id", "band_1", "band_2", "inc_angle", "is_iceberg"] for s in train)
assert all(list(s.keys()) == ["id", "band_1", "band_2", "inc_angle"] for s in test)
for s in train + test:
    assert isinstance(s["id"], str) and len(s["id"]) == 8 and int(s["id"], 16) >= 0
    assert len(s["band_1"]) == len(s["band_2"]) == 225
    assert all(isinstance(v, float) for v in s["band_1"] + s["band_2"])
    assert s["inc_angle"] == "na" or isinstance(s["inc_angle"], float)
ids = [s["id"] for s in train + test]
assert len(set(ids)) == len(ids)
assert list(sample.columns) == ["id", "is_iceberg"] and (sample["is_iceberg"] == 0.5).all()
assert list(sample["id"]) == [s["id"] for s in test]
y = np.array([s["is_iceberg"] for s in train])
assert set(y) == {0, 1} and 0.35 < y.mean() < 0.6, y.mean()
assert any(s["inc_angle"] == "na" for s in train)
score = [-max(s["band_1"]) for s in train]
auc = roc_auc_score(y, score)
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(y, np.full(len(y), 0.5)) == 0.5
)py";

TEST(StatoilRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    const fs::path out = testing::NewTempDir("extracted");
    for (const char* archive : {"train.json.7z", "test.json.7z", "sample_submission.csv.7z"}) {
      ASSERT_TRUE(Extract7z(*raw / archive, out).ok()) << archive;
    }
    EXPECT_THAT(*List7z(*raw / "train.json.7z"), ElementsAre("data/processed/train.json"));
    testing::CommandResult result = testing::RunPython(kCheckScript, {out.string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
