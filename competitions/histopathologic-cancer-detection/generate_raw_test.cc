#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(HistopathologicRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  int train = 0, test = 0;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind("train/", 0) == 0;
    test += name.rfind("test/", 0) == 0;
  }
  EXPECT_EQ(train, 240);
  EXPECT_EQ(test, 60);
  EXPECT_EQ(tree->size(), 302u);  // + train_labels.csv, sample_submission.csv
  EXPECT_THAT(tree->at("train_labels.csv"), StartsWith("id,label\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,label\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's layout; Pillow decodes every tile; the darkness of
// the central square separates tumour tiles (AUC > 0.8) while the sample
// submission's constant 0 scores 0.5.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train_labels.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["id", "label"] and list(sample.columns) == ["id", "label"]
assert train["id"].dtype == object and train["label"].dtype == np.int64, train.dtypes
assert sample["label"].dtype == np.int64 and (sample["label"] == 0).all()
assert len(train) == 240 and len(sample) == 60
for frame in (train, sample):
    assert frame["id"].str.fullmatch(r"[0-9a-f]{40}").all() and frame["id"].is_unique
assert not set(train["id"]) & set(sample["id"])
assert sorted(p.stem for p in (raw / "train").glob("*.tif")) == sorted(train["id"])
assert sorted(p.stem for p in (raw / "test").glob("*.tif")) == sorted(sample["id"])
rate = train["label"].mean()
assert 0.3 <= rate <= 0.5, rate

def tile(folder, i):
    im = Image.open(raw / folder / f"{i}.tif")
    assert im.format == "TIFF" and im.mode == "RGB" and im.size == (32, 32), (im.format, im.mode, im.size)
    return np.asarray(im, dtype=np.float64)

darkness = np.array([-tile("train", i)[8:24, 8:24].mean() for i in train["id"]])
for i in sample["id"]:
    tile("test", i)
auc = roc_auc_score(train["label"], darkness)
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(train["label"], np.zeros(len(train))) == 0.5
)py";

TEST(HistopathologicRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
