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

TEST(CassavaRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_images = 0, train_tfrecords = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train_images += name.starts_with("train_images/");
    train_tfrecords += name.starts_with("train_tfrecords/ld_train");
  }
  EXPECT_EQ(train_images, 240u);
  EXPECT_EQ(train_tfrecords, 16u);
  EXPECT_EQ(tree->size(), 240u + 16u + 5u);
  EXPECT_EQ(tree->count("test_images/2216849948.jpg"), 1u);
  EXPECT_EQ(tree->count("test_tfrecords/ld_test00-1.tfrec"), 1u);
  EXPECT_EQ(tree->at("sample_submission.csv"), "image_id,label\n2216849948.jpg,4\n");
  EXPECT_THAT(tree->at("train.csv"), StartsWith("image_id,label\n"));
  EXPECT_THAT(tree->at("label_num_to_disease_map.json"), StartsWith("{\"0\": \"Cassava"));
  EXPECT_LT(total, 1'500'000u);
}

// pandas reads Kaggle's columns and dtypes; the TFRecord files (read by an
// independent Python reader, CRCs checked) hold every train image once,
// with its name, label and exact JPEG bytes, and their names carry their
// record counts; a nearest-centroid model on colour statistics beats both
// the sample submission's label 4 and the majority class on held-out rows.
constexpr char kCheckScript[] = R"py(
import json, re, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split
from sklearn.neighbors import NearestCentroid
from sklearn.preprocessing import StandardScaler
sys.path.insert(0, "competitions/cassava-leaf-disease-classification")
import tfrecord_reference as tfr

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["image_id", "label"] and list(train.dtypes) == [object, np.int64]
assert train["image_id"].str.fullmatch(r"[1-9]\d{5,9}\.jpg").all() and train["image_id"].is_unique
assert train["image_id"].is_monotonic_increasing and train["label"].between(0, 4).all()
assert json.loads((raw / "label_num_to_disease_map.json").read_text())["4"] == "Healthy"

seen = {}
files = sorted((raw / "train_tfrecords").iterdir())
assert [f.name for f in files] == [f"ld_train{i:02d}-{len(tfr.records(f))}.tfrec" for i, f in enumerate(files)]
for f in files:
    for record in tfr.records(f):
        feats = tfr.features(record)
        name = feats["image_name"][0].decode()
        assert name not in seen
        seen[name] = (feats["target"][0], feats["image"][0])
assert sorted(seen) == sorted(train["image_id"])
for row in train.itertuples():
    assert seen[row.image_id][0] == row.label
    assert seen[row.image_id][1] == (raw / "train_images" / row.image_id).read_bytes()
assert tfr.image_names(raw / "test_tfrecords" / "ld_test00-1.tfrec") == ["2216849948.jpg"]

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64).reshape(-1, 3)
    return np.concatenate([a.mean(0), a.std(0), np.percentile(a, 5, 0), np.percentile(a, 95, 0)])

X = np.array([features(raw / "train_images" / i) for i in train["image_id"]])
features(raw / "test_images" / "2216849948.jpg")
X_fit, X_val, y_fit, y_val = train_test_split(X, train["label"], test_size=0.3, random_state=0)
scaler = StandardScaler().fit(X_fit)
model = NearestCentroid().fit(scaler.transform(X_fit), y_fit)
accuracy = (model.predict(scaler.transform(X_val)) == y_val).mean()
majority = (y_val == y_fit.mode()[0]).mean()
sample = (y_val == 4).mean()
print(f"accuracy={accuracy:.3f} majority={majority:.3f} sample={sample:.3f}")
assert accuracy > 0.6 and accuracy > max(majority, sample) + 0.2, (accuracy, majority, sample)
)py";

TEST(CassavaRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
