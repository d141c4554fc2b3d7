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

TEST(IWildCamRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train = 0, test = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.starts_with("train/");
    test += name.starts_with("test/");
  }
  EXPECT_EQ(train, 220u);
  EXPECT_EQ(test, 40u);
  EXPECT_EQ(tree->size(), 220u + 40u + 4u);
  EXPECT_THAT(tree->at("iwildcam2020_train_annotations.json"), StartsWith("{\"annotations\": ["));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("Id,Category\n"));
  EXPECT_LT(total, 1'500'000u);
}

// Python's json and pandas read Kaggle's structure and types; every image
// has its file; a nearest-centroid model on colour statistics, fitted on the
// images of some locations, beats the most common category clearly on the
// images of the other locations (upstream's split is by location).
constexpr char kCheckScript[] = R"py(
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.neighbors import NearestCentroid
from sklearn.preprocessing import StandardScaler

raw = Path(sys.argv[1])
train = json.loads((raw / "iwildcam2020_train_annotations.json").read_text())
test = json.loads((raw / "iwildcam2020_test_information.json").read_text())
json.loads((raw / "iwildcam2020_megadetector_results.json").read_text())
assert list(train) == ["annotations", "images", "categories", "info"] and list(test) == ["images", "categories", "info"]
ann, img = pd.DataFrame(train["annotations"]), pd.DataFrame(train["images"])
assert list(ann.columns) == ["count", "image_id", "id", "category_id"] and ann["category_id"].dtype == np.int64
assert {"id", "location", "file_name", "seq_id", "datetime"} <= set(img.columns) and img["location"].dtype == np.int64
assert img["id"].is_unique and img["id"].str.fullmatch(r"[0-9a-f]{8}-21bc-11ea-a13a-[0-9a-f]{12}").all()
assert set(ann["image_id"]) == set(img["id"]) and img["location"].nunique() >= 20
assert set(ann["category_id"]) <= {c["id"] for c in train["categories"]}
assert not set(img["location"]) & {i["location"] for i in test["images"]}
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["Id", "Category"] and set(sample["Id"]) == {i["id"] for i in test["images"]}

def features(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64)
    centre = a[8:24, 6:26].reshape(-1, 3)
    return np.concatenate([centre.mean(0), centre.std(0), a.reshape(-1, 3).std(0)])

for i in test["images"]:
    features(raw / "test" / f"{i['id']}.jpg")
df = img.merge(ann, left_on="id", right_on="image_id")
X = np.array([features(raw / "train" / f"{i}.jpg") for i in df["id_x"]])
y = df["category_id"].to_numpy()
locs = sorted(df["location"].unique())
fit = df["location"].isin(locs[: int(len(locs) * 0.7)]).to_numpy()
scaler = StandardScaler().fit(X[fit])
model = NearestCentroid().fit(scaler.transform(X[fit]), y[fit])
accuracy = (model.predict(scaler.transform(X[~fit])) == y[~fit]).mean()
majority = (y[~fit] == pd.Series(y[fit]).mode()[0]).mean()
print(f"accuracy={accuracy:.3f} majority={majority:.3f}")
assert accuracy > 0.6 and accuracy > majority + 0.2, (accuracy, majority)
)py";

TEST(IWildCamRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
