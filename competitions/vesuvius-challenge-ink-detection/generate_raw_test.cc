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

TEST(VesuviusRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  EXPECT_EQ(tree->size(), 3u * 10);
  for (const char* fragment : {"1", "2", "3"}) {
    const std::string dir = std::string("train/") + fragment + "/";
    EXPECT_THAT(tree->at(dir + "inklabels_rle.csv"),
                StartsWith("Id,Predicted\n" + std::string(fragment) + ","));
    for (const char* name : {"ir.png", "inklabels.png", "mask.png", "surface_volume/00.tif",
                             "surface_volume/05.tif"}) {
      EXPECT_EQ(tree->count(dir + name), 1u) << dir << name;
    }
  }
  EXPECT_LT(total, 1'000'000u);
}

// pandas and Pillow read Kaggle's layout; each inklabels_rle.csv, decoded the
// way upstream's grader does (the transpose of rle_decode), is
// inklabels.png; and a threshold on the middle layers, fitted on fragments 1
// and 2, beats the sample submission ("1 1 5 1") on fragment 3 by F0.5.
constexpr char kCheckScript[] = R"py(
import sys, warnings
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import fbeta_score

warnings.simplefilter("ignore")
raw = Path(sys.argv[1])

def rle_decode(rle, height, width):
    s = list(map(int, rle.split()))
    flat = np.zeros(height * width, dtype=bool)
    for start, length in zip(s[0::2], s[1::2]):
        flat[start - 1:start - 1 + length] = True
    return flat.reshape((width, height)).T

features, labels = {}, {}
for n in (1, 2, 3):
    d = raw / "train" / str(n)
    ir = Image.open(d / "ir.png")
    assert ir.format == "PNG" and ir.mode == "L"
    width, height = ir.size
    ink = np.asarray(Image.open(d / "inklabels.png")) == 255
    assert ink.shape == (height, width) and 0.01 < ink.mean() < 0.5
    rle = pd.read_csv(d / "inklabels_rle.csv")
    assert list(rle.columns) == ["Id", "Predicted"] and len(rle) == 1
    assert rle["Predicted"].dtype == object
    assert (rle_decode(rle["Predicted"][0], width, height).T == ink).all()
    layers = []
    for k in range(6):
        im = Image.open(d / "surface_volume" / f"{k:02d}.tif")
        assert im.format == "TIFF" and im.size == (width, height)
        layers.append(np.asarray(im.convert("L"), dtype=np.float64))
    features[n] = (layers[2] + layers[3]) / 2 - (layers[0] + layers[5]) / 2
    labels[n] = ink.flatten()

def f05(pred, truth):
    return fbeta_score(truth, pred, beta=0.5)

best = max(np.arange(0, 60, 2), key=lambda t: sum(f05(features[n].flatten() > t, labels[n]) for n in (1, 2)))
model = f05(features[3].flatten() > best, labels[3])
width = features[3].shape[1]
baseline = rle_decode("1 1 5 1", width, features[3].shape[0]).T.flatten()
base = f05(baseline, labels[3])
print(f"threshold={best} model={model:.3f} baseline={base:.3f}")
assert model > base + 0.5, (model, base)
)py";

TEST(VesuviusRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
