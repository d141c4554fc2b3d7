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

TEST(PlantSeedlingsRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_images = 0, test_images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train_images += name.starts_with("train/");
    test_images += name.starts_with("test/");
  }
  EXPECT_EQ(tree->size(), 1 + train_images + test_images);
  EXPECT_EQ(train_images, 240u);
  EXPECT_EQ(test_images, 48u);
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("file,species\n"));
  EXPECT_LT(total, 2'000'000u);
}

// The folders hold the 12 species as Kaggle names them; every image is a
// 32x32 RGB PNG named by 9 hex digits; the sample submission lists the test
// files; a random forest on colour and shape statistics of the green
// pixels, fitted on 3/4 of the train images, beats the majority species
// clearly on the rest.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
species = sorted(p.name for p in (raw / "train").iterdir())
assert species == ["Black-grass", "Charlock", "Cleavers", "Common Chickweed", "Common wheat",
                   "Fat Hen", "Loose Silky-bent", "Maize", "Scentless Mayweed",
                   "Shepherds Purse", "Small-flowered Cranesbill", "Sugar beet"], species
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["file", "species"] and (sample["species"] == "Sugar beet").all()
assert sorted(sample["file"]) == sorted(p.name for p in (raw / "test").iterdir())

def features(path):
    im = Image.open(path)
    assert im.format == "PNG" and im.mode == "RGB" and im.size == (32, 32), path
    a = np.asarray(im, dtype=np.float64)
    green = (a[..., 1] > a[..., 0] + 8) & (a[..., 1] > a[..., 2] + 8)
    ys, xs = np.nonzero(green)
    if len(xs) < 3:
        return np.zeros(12)
    cov = np.cov(np.c_[xs, ys].T)
    eig = np.sort(np.linalg.eigvalsh(cov))
    r = np.hypot(xs - xs.mean(), ys - ys.mean())
    colour = a[green].mean(0) / a[~green].mean(0).clip(1)
    return np.r_[green.mean(), eig, r.mean(), r.std(), np.percentile(r, 90), colour,
                 a[green].std(0).mean(), (r < 3).mean(), len(xs) / (1 + r.max() ** 2)]

rows = [(features(p), p.parent.name) for p in sorted((raw / "train").glob("*/*.png"))]
assert len(rows) == 240 and all(len(p.stem) == 9 for p in (raw / "train").glob("*/*.png"))
X = np.array([f for f, _ in rows]); y = np.array([s for _, s in rows])
X_fit, X_val, y_fit, y_val = train_test_split(X, y, test_size=0.25, random_state=0)
model = RandomForestClassifier(n_estimators=200, random_state=0).fit(X_fit, y_fit)
accuracy = (model.predict(X_val) == y_val).mean()
majority = (y_val == pd.Series(y_fit).mode()[0]).mean()
print(f"accuracy={accuracy:.3f} majority={majority:.3f}")
assert accuracy > 0.5 and accuracy > majority + 0.3, (accuracy, majority)
)py";

TEST(PlantSeedlingsRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
