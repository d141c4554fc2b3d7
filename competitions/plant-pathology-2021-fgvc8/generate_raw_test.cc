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

TEST(PlantPathology2021RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    images += name.starts_with("train_images/") && name.ends_with(".jpg");
  }
  EXPECT_EQ(images, 400u);
  EXPECT_EQ(tree->size(), 401u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("image,labels\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; image names are 16 hex digits +
// ".jpg", unique, each with its file; the labels are Kaggle's combinations;
// Pillow decodes the images; one logistic regression per label on colour
// statistics, fitted on 80% of the rows, scores a micro F1 well above the
// all-"healthy" sample submission's on the rest.
constexpr char kCheckScript[] = R"py(
import re, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import MultiLabelBinarizer, StandardScaler

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["image", "labels"], list(train.columns)
assert list(train.dtypes) == [object, object], train.dtypes
assert len(train) == 400 and train["image"].is_unique
assert all(re.fullmatch(r"[0-9a-f]{16}\.jpg", i) for i in train["image"])
labels = train["labels"].str.split()
names = {"healthy", "scab", "rust", "frog_eye_leaf_spot", "complex", "powdery_mildew"}
assert set(labels.explode()) == names, set(labels.explode())
assert sorted(p.name for p in (raw / "train_images").iterdir()) == sorted(train["image"])

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    r, g, b = a.T
    return [(r > g).mean(), ((r > 180) & (b < 90)).mean(), ((g < 90) & (r < 90) & (r > 40)).mean(),
            ((r > 150) & (g > 150) & (b > 140)).mean(), ((r > 130) & (g > 100) & (b < 80)).mean(),
            *a.mean(0), *a.std(0)]

X = np.array([features(raw / "train_images" / i) for i in train["image"]])
mlb = MultiLabelBinarizer(classes=sorted(names))
Y = mlb.fit_transform(labels)
X_fit, X_val, Y_fit, Y_val = train_test_split(X, Y, test_size=0.2, random_state=0)
scaler = StandardScaler().fit(X_fit)
pred = np.column_stack([
    LogisticRegression(max_iter=2000).fit(scaler.transform(X_fit), Y_fit[:, k])
    .predict(scaler.transform(X_val)) for k in range(Y.shape[1])])
f1 = f1_score(Y_val, pred, average="micro")
sample = f1_score(Y_val, mlb.transform([["healthy"]] * len(Y_val)), average="micro")
print(f"f1={f1:.3f} sample={sample:.3f}")
assert f1 > 0.45 and f1 > sample + 0.25, (f1, sample)
)py";

TEST(PlantPathology2021RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
