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

TEST(HubmapRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, tiffs = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    tiffs += name.ends_with(".tiff");
  }
  EXPECT_EQ(tree->size(), 2u + 15 * 3);
  EXPECT_EQ(tiffs, 15u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("id,encoding\n"));
  EXPECT_THAT(tree->at("HuBMAP-20-dataset_information.csv"),
              StartsWith("image_file,width_pixels,"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas, json and Pillow read Kaggle's layout; each encoding, decoded as
// upstream's rle_decode does, is the glomerulus mask; and thresholding the
// green channel beats the sample submission's empty masks (Dice 0) on the
// images upstream holds out.
constexpr char kCheckScript[] = R"py(
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
info = pd.read_csv(raw / "HuBMAP-20-dataset_information.csv")
assert list(train.columns) == ["id", "encoding"] and len(train) == 15
assert train["id"].str.fullmatch(r"[0-9a-f]{9}").all() and train["encoding"].notna().all()
assert len(info) == 20 and info["width_pixels"].dtype == np.int64
assert info["height_pixels"].dtype == np.int64 and info["age"].dtype == np.int64
assert info["bmi_kg/m^2"].dtype == np.float64
info["id"] = info["image_file"].str.replace(".tiff", "", regex=False)
assert set(train["id"]) < set(info["id"])
sizes = info.set_index("id")

def rle_decode(rle, height, width):
    s = list(map(int, rle.split()))
    flat = np.zeros(height * width, dtype=bool)
    for start, length in zip(s[0::2], s[1::2]):
        flat[start - 1:start - 1 + length] = True
    return flat.reshape((width, height)).T

def dice(p, t):
    return 1.0 if p.sum() + t.sum() == 0 else 2 * (p & t).sum() / (p.sum() + t.sum())

images, masks = {}, {}
for image_id, rle in zip(train["id"], train["encoding"]):
    im = Image.open(raw / "train" / f"{image_id}.tiff")
    assert im.format == "TIFF" and im.mode == "RGB"
    assert im.size == (sizes.loc[image_id, "width_pixels"], sizes.loc[image_id, "height_pixels"])
    images[image_id] = np.asarray(im)
    masks[image_id] = rle_decode(rle, im.size[1], im.size[0])
    assert 0 < masks[image_id].mean() < 0.5
    glomeruli = json.loads((raw / "train" / f"{image_id}.json").read_text())
    assert glomeruli and all(g["geometry"]["type"] == "Polygon" for g in glomeruli)
    json.loads((raw / "train" / f"{image_id}-anatomical-structure.json").read_text())

_, test = train_test_split(train, train_size=12, test_size=3, random_state=0)
model = np.mean([dice(images[i][:, :, 1] < 130, masks[i]) for i in test["id"]])
print(f"model dice={model:.3f}")
assert model > 0.7, model
)py";

TEST(HubmapRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
