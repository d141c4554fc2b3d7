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

TEST(SetiRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  int train = 0, test = 0, old = 0;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind("train/", 0) == 0;
    test += name.rfind("test/", 0) == 0;
    old += name.rfind("old_leaky_data/train_old/", 0) == 0;
  }
  EXPECT_EQ(train, 300);
  EXPECT_EQ(test, 40);
  EXPECT_EQ(old, 6);
  EXPECT_EQ(tree->size(), 349u);  // + three CSV files
  EXPECT_THAT(tree->at("train_labels.csv"), StartsWith("id,target\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,target\n"));
  EXPECT_THAT(tree->at("old_leaky_data/train_labels_old.csv"), StartsWith("id,target\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's layout; numpy loads every snippet as float16
// (6, 16, 16); the brightest pixel of the on-target cadences minus that of
// the off-target ones separates the targets (AUC > 0.8) while the sample
// submission's constant 0.5 scores 0.5.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train_labels.csv", float_precision="round_trip")
sample = pd.read_csv(raw / "sample_submission.csv")
old = pd.read_csv(raw / "old_leaky_data" / "train_labels_old.csv")
for frame in (train, sample, old):
    assert list(frame.columns) == ["id", "target"], list(frame.columns)
    assert frame["id"].dtype == object and frame["id"].str.fullmatch(r"[0-9a-f]{15}").all()
    assert frame["id"].is_unique
assert train["target"].dtype == np.int64 and sample["target"].dtype == np.float64
assert (sample["target"] == 0.5).all()
assert len(train) == 300 and len(sample) == 40 and len(old) == 6
assert not set(train["id"]) & set(sample["id"])
rate = train["target"].mean()
assert 0.05 <= rate <= 0.16, rate

def snippet(folder, i):
    a = np.load(raw / folder / i[0] / f"{i}.npy")
    assert a.dtype == np.float16 and a.shape == (6, 16, 16), (a.dtype, a.shape)
    return a.astype(np.float64)

def on_minus_off(a):
    peaks = a.max(axis=(1, 2))
    return peaks[0::2].mean() - peaks[1::2].mean()

feature = np.array([on_minus_off(snippet("train", i)) for i in train["id"]])
for i in sample["id"]:
    snippet("test", i)
for i in old["id"]:
    snippet("old_leaky_data/train_old", i)
assert sum(1 for p in (raw / "train").rglob("*") if p.is_file()) == 300
auc = roc_auc_score(train["target"], feature)
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(train["target"], np.full(len(train), 0.5)) == 0.5
)py";

TEST(SetiRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
