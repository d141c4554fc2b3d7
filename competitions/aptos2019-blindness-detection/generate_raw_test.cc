#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(AptosRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_images = 0, test_images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train_images += name.starts_with("train_images/");
    test_images += name.starts_with("test_images/");
  }
  EXPECT_EQ(tree->size(), 3 + train_images + test_images);
  EXPECT_EQ(train_images, 300u);
  EXPECT_EQ(test_images, 60u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("id_code,diagnosis\n"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith("id_code\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id_code,diagnosis\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every id has its PNG, which
// Pillow decodes as 32x32 RGB; a ridge regression on colour statistics,
// fitted on 3/4 of the rows and rounded to a grade, reaches a clearly
// positive quadratic weighted kappa on the rest, where the all-0 sample
// submission scores 0.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import Ridge
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
test = pd.read_csv(raw / "test.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["id_code", "diagnosis"], list(train.columns)
assert list(train.dtypes) == [object, np.int64], train.dtypes
assert list(test.columns) == ["id_code"] and list(sample.columns) == ["id_code", "diagnosis"]
assert list(sample["id_code"]) == list(test["id_code"]) and (sample["diagnosis"] == 0).all()
assert len(train) == 300 and len(test) == 60
ids = pd.concat([train["id_code"], test["id_code"]])
assert ids.str.fullmatch(r"[0-9a-f]{12}").all() and ids.is_unique
assert set(train["diagnosis"]) == {0, 1, 2, 3, 4}, train["diagnosis"].value_counts()

def features(path):
    im = Image.open(path)
    assert im.format == "PNG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    yellow = ((a[:, 0] > 190) & (a[:, 1] > 170) & (a[:, 2] < 120)).mean()
    red = ((a[:, 0] > 60) & (a[:, 1] < 45)).mean()
    return np.concatenate([a.mean(0), a.std(0), [yellow, red]])

X = np.array([features(raw / "train_images" / f"{i}.png") for i in train["id_code"]])
for i in test["id_code"]:
    features(raw / "test_images" / f"{i}.png")
assert sorted(p.name for p in (raw / "train_images").iterdir()) == sorted(i + ".png" for i in train["id_code"])
assert sorted(p.name for p in (raw / "test_images").iterdir()) == sorted(i + ".png" for i in test["id_code"])

X_fit, X_val, y_fit, y_val = train_test_split(X, train["diagnosis"], test_size=0.25, random_state=0)
model = Ridge(alpha=1e-3).fit(X_fit, y_fit)
pred = np.clip(np.rint(model.predict(X_val)), 0, 4).astype(int)
kappa = cohen_kappa_score(pred, y_val, weights="quadratic")
baseline = cohen_kappa_score(np.zeros(len(y_val), int), y_val, weights="quadratic")
print(f"kappa={kappa:.3f} baseline={baseline:.3f}")
assert kappa > 0.6 and baseline == 0, (kappa, baseline)
)py";

TEST(AptosRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
