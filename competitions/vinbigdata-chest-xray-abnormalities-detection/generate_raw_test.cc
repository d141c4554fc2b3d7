#include <filesystem>
#include <iostream>
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

TEST(VinBigDataRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_dicoms = 0, test_dicoms = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.size() > 6 && name.substr(name.size() - 6) == ".dicom") {
      EXPECT_EQ(bytes.substr(128, 4), "DICM") << name;
      (name.rfind("train/", 0) == 0 ? train_dicoms : test_dicoms)++;
    }
  }
  EXPECT_EQ(train_dicoms, 15000u);  // upstream's prepare.py asserts 13,500 + 1,500
  EXPECT_EQ(test_dicoms, 3u);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("image_id,class_name,class_id,rad_id,x_min,y_min,x_max,y_max\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("image_id,PredictionString\n"));
  EXPECT_LT(total, 10'000'000u);
}

// pandas reads train.csv with Kaggle's dtypes; every image has its DICOM
// (pixels read from the standard's layout, no pydicom here); "No finding"
// rows have blank boxes, others full boxes; on the last 20% of the images a
// contrast threshold fitted on the first 80% tells abnormal images from
// normal ones with at most half the errors of the sample submission (which
// calls every image normal), and the brightest quadrant locates the first finding's box.
constexpr char kCheckScript[] = R"py(
import struct, sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
expected = {"image_id": "object", "class_name": "object", "class_id": "int64",
            "rad_id": "object", "x_min": "float64", "y_min": "float64", "x_max": "float64",
            "y_max": "float64"}
assert {c: str(t) for c, t in train.dtypes.items()} == expected, train.dtypes
assert list(sample.columns) == ["image_id", "PredictionString"]
assert train["image_id"].nunique() == 15000
assert train["image_id"].str.fullmatch("[0-9a-f]{32}").all()
normal = train["class_id"] == 14
assert (train.loc[normal, "class_name"] == "No finding").all()
assert train.loc[normal, ["x_min", "y_min", "x_max", "y_max"]].isna().all().all()
assert train.loc[~normal, ["x_min", "y_min", "x_max", "y_max"]].notna().all().all()
assert (train.loc[~normal, "x_max"] >= train.loc[~normal, "x_min"]).all()
assert train.duplicated(["image_id", "class_id"]).any()

def pixels(path):
    data = path.read_bytes()
    assert data[:128] == bytes(128) and data[128:132] == b"DICM"
    at, elements = 132, {}
    while at < len(data):
        group, element, vr = struct.unpack_from("<HH2s", data, at)
        if vr in (b"OB", b"OW", b"SQ", b"UN", b"UT"):
            (length,) = struct.unpack_from("<2xI", data, at + 6); at += 12
        else:
            (length,) = struct.unpack_from("<H", data, at + 6); at += 8
        elements[(group, element)] = data[at:at + length]; at += length
    rows = struct.unpack("<H", elements[(0x28, 0x10)])[0]
    cols = struct.unpack("<H", elements[(0x28, 0x11)])[0]
    return np.frombuffer(elements[(0x7FE0, 0x10)][:rows * cols], np.uint8).reshape(rows, cols)

files = sorted(p.stem for p in (raw / "train").glob("*.dicom"))
assert files == sorted(train["image_id"].unique())
images = train.groupby("image_id", sort=False).agg(abnormal=("class_id", lambda c: (c != 14).any()))
quadrants = []
for image_id in images.index:
    p = pixels(raw / "train" / f"{image_id}.dicom").astype(float)
    quadrants.append([p[:2, :2].mean(), p[:2, 2:].mean(), p[2:, :2].mean(), p[2:, 2:].mean()])
quadrants = np.array(quadrants)
contrast = quadrants.max(axis=1) - quadrants.min(axis=1)
labels = images["abnormal"].values
cut = int(len(labels) * 0.8)
best = max(np.unique(np.round(contrast[:cut])),
           key=lambda t: np.mean((contrast[:cut] >= t) == labels[:cut]))
model = np.mean((contrast[cut:] >= best) == labels[cut:])
baseline = np.mean(labels[cut:] == False)
print(f"held-out accuracy: contrast threshold {model:.3f}, sample submission {baseline:.3f}")
assert 1 - model < (1 - baseline) / 2, (model, baseline)  # at most half the errors

first = train[~normal].drop_duplicates("image_id")
centre_x = (first["x_min"] + first["x_max"]) / 2 >= 512
centre_y = (first["y_min"] + first["y_max"]) / 2 >= 512
truth_quadrant = (centre_y.values * 2 + centre_x.values)
position = {image_id: i for i, image_id in enumerate(images.index)}
found = quadrants[[position[i] for i in first["image_id"]]].argmax(axis=1)
print(f"brightest quadrant holds a finding: {np.mean(found == truth_quadrant):.3f}")
assert np.mean(found == truth_quadrant) > 0.6
)py";

TEST(VinBigDataRawTest, PandasReadsItAndImagesPredictFindings) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult run = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::cout << run.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
