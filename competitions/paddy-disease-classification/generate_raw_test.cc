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

TEST(PaddyDiseaseRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_images = 0, test_images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train_images += name.starts_with("train_images/");
    test_images += name.starts_with("test_images/");
  }
  EXPECT_EQ(tree->size(), 2 + train_images + test_images);
  EXPECT_EQ(train_images, 480u);
  EXPECT_EQ(test_images, 120u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("image_id,label,variety,age\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("image_id,label\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every train row has its image at
// train_images/<label>/<image_id> and every sample row at test_images/;
// Pillow decodes them; a nearest-centroid model on colour statistics,
// fitted on 3/4 of the rows, beats the majority class clearly on the rest.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestCentroid
from sklearn.preprocessing import StandardScaler

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["image_id", "label", "variety", "age"], list(train.columns)
assert list(train.dtypes) == [object, object, object, np.int64], train.dtypes
assert list(sample.columns) == ["image_id", "label"], list(sample.columns)
assert sample["label"].isna().all()
assert len(train) == 480 and len(sample) == 120
assert train["image_id"].str.fullmatch(r"1\d{5}\.jpg").all() and train["image_id"].is_unique
assert sample["image_id"].str.fullmatch(r"2\d{5}\.jpg").all() and sample["image_id"].is_unique
assert train["label"].is_monotonic_increasing
assert train["label"].nunique() == 10, train["label"].value_counts()
assert train["age"].between(45, 82).all()

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    return np.concatenate([a.mean(0), a.std(0), np.percentile(a, 5, 0), np.percentile(a, 95, 0)])

X = np.array([features(raw / "train_images" / r.label / r.image_id) for r in train.itertuples()])
for i in sample["image_id"]:
    features(raw / "test_images" / i)
assert sorted(p.name for p in (raw / "test_images").iterdir()) == sorted(sample["image_id"])

X_fit, X_val, y_fit, y_val = train_test_split(X, train["label"], test_size=0.25, random_state=0)
scaler = StandardScaler().fit(X_fit)
model = NearestCentroid().fit(scaler.transform(X_fit), y_fit)
accuracy = (model.predict(scaler.transform(X_val)) == y_val).mean()
majority = (y_val == y_fit.mode()[0]).mean()
print(f"accuracy={accuracy:.3f} majority={majority:.3f}")
assert accuracy > 0.6 and accuracy > majority + 0.3, (accuracy, majority)
)py";

TEST(PaddyDiseaseRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
