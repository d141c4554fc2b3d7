#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(IWildCam2019RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  EXPECT_EQ(tree->size(), 5u);
  EXPECT_EQ(tree->at("train.csv").substr(0, 30), "category_id,date_captured,file");
  EXPECT_EQ(tree->at("sample_submission.csv").substr(0, 13), "Id,Predicted\n");
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads Kaggle's layout with the expected dtypes; the zips hold one
// decodable <id>.jpg per row; a nearest-centroid model on colour features,
// fitted on the frames of some camera locations, gets a much higher macro F1
// on the other locations than the sample submission's all-zero predictions.
constexpr char kCheckScript[] = R"py(
import io, sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import f1_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
test = pd.read_csv(raw / "test.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
cols = ["category_id", "date_captured", "file_name", "frame_num", "id", "location",
        "rights_holder", "seq_id", "seq_num_frames", "width", "height"]
assert list(train.columns) == cols, list(train.columns)
assert list(test.columns) == cols[1:]
assert list(sample.columns) == ["Id", "Predicted"] and list(sample["Id"]) == list(test["id"])
for c in ["category_id", "frame_num", "location", "seq_num_frames", "width", "height"]:
    assert train[c].dtype == np.int64, c
assert train["id"].dtype == object and train["id"].is_unique
assert (train["file_name"] == train["id"] + ".jpg").all()
assert train["location"].nunique() >= 15

def load(zip_path, ids):
    with zipfile.ZipFile(zip_path) as z:
        assert sorted(z.namelist()) == sorted(f"{i}.jpg" for i in ids)
        feats = []
        for i in ids:
            im = Image.open(io.BytesIO(z.read(f"{i}.jpg")))
            assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
            a = np.asarray(im, dtype=np.float64)
            centre = a[10:22, 10:22].reshape(-1, 3)
            feats.append(np.concatenate([centre.mean(axis=0), centre.std(axis=0),
                                         a.reshape(-1, 3).std(axis=0)]))
        return np.array(feats)

load(raw / "test_images.zip", test["id"])
x = load(raw / "train_images.zip", train["id"])
y = train["category_id"].to_numpy()
held = train["location"].isin(sorted(train["location"].unique())[::4]).to_numpy()
labels = sorted(set(y[~held]))
centroids = np.array([x[~held][y[~held] == c].mean(axis=0) for c in labels])
d = ((x[held][:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
pred = np.array(labels)[d.argmin(axis=1)]
model = f1_score(y[held], pred, average="macro")
baseline = f1_score(y[held], np.zeros_like(y[held]), average="macro")
print(f"macro F1: model={model:.3f} all-zero={baseline:.3f}")
assert model > 0.6 and model > baseline + 0.4, (model, baseline)
)py";

TEST(IWildCam2019RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 4}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
