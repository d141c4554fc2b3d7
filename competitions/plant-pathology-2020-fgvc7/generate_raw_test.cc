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

TEST(PlantPathologyRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    images += name.starts_with("images/Train_") && name.ends_with(".jpg");
  }
  EXPECT_EQ(images, 600u);
  EXPECT_EQ(tree->size(), 601u);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("image_id,healthy,multiple_diseases,rust,scab\nTrain_0,"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes (one-hot int labels); every row
// has its image; Pillow decodes them; a logistic regression on colour
// statistics, fitted on 90% of the rows, scores a mean column-wise ROC AUC
// far above the constant 0.25 submission's 0.5 on the rest.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

raw = Path(sys.argv[1])
classes = ["healthy", "multiple_diseases", "rust", "scab"]
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["image_id"] + classes, list(train.columns)
assert list(train.dtypes) == [object] + [np.int64] * 4, train.dtypes
assert len(train) == 600
assert (train["image_id"] == [f"Train_{i}" for i in range(600)]).all()
assert (train[classes].sum(axis=1) == 1).all()
assert train[classes].isin([0, 1]).all().all()
assert (train[classes].sum() >= 50).all(), train[classes].sum()
assert sorted(p.name for p in (raw / "images").iterdir()) == sorted(train["image_id"] + ".jpg")

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    r, g, b = a.T
    return [(r > g).mean(), ((r > 180) & (b < 90)).mean(), ((g < 100) & (r > 55) & (r < 110)).mean(),
            *a.mean(0), *a.std(0)]

X = np.array([features(raw / "images" / f"{i}.jpg") for i in train["image_id"]])
y = train[classes].to_numpy().argmax(axis=1)
X_fit, X_val, y_fit, y_val = train_test_split(X, y, test_size=0.1, random_state=0, stratify=y)
scaler = StandardScaler().fit(X_fit)
model = LogisticRegression(max_iter=2000).fit(scaler.transform(X_fit), y_fit)
proba = model.predict_proba(scaler.transform(X_val))
onehot = np.eye(4)[y_val]
auc = np.mean([roc_auc_score(onehot[:, k], proba[:, k]) for k in range(4)])
constant = np.mean([roc_auc_score(onehot[:, k], np.full(len(y_val), 0.25)) for k in range(4)])
print(f"auc={auc:.3f} constant={constant:.3f}")
assert constant == 0.5 and auc > 0.8, (auc, constant)
)py";

TEST(PlantPathologyRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
