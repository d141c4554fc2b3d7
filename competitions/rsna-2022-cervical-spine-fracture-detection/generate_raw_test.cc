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

TEST(RsnaCervicalRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, dicoms = 0, niftis = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.rfind("train_images/", 0) == 0) {
      ++dicoms;
      EXPECT_EQ(bytes.substr(128, 4), "DICM") << name;
    }
    if (name.rfind("segmentations/", 0) == 0) {
      ++niftis;
      EXPECT_EQ(bytes.substr(344, 4), std::string("n+1\0", 4)) << name;
    }
  }
  EXPECT_EQ(dicoms, 60u * 3);
  EXPECT_EQ(niftis, 20u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("StudyInstanceUID,patient_overall,C1,"));
  EXPECT_THAT(tree->at("train_bounding_boxes.csv"), StartsWith("StudyInstanceUID,x,y,width,"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the CSVs with the expected dtypes; the boxed and segmented
// studies overlap; a per-vertebra threshold on band intensity, fitted on 40
// studies, beats the sample submission's 0.5 under the competition's
// weighted log loss on the other 20.
constexpr char kCheckScript[] = R"py(
import struct, sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
boxes = pd.read_csv(raw / "train_bounding_boxes.csv")
cols = ["patient_overall"] + [f"C{i}" for i in range(1, 8)]
assert list(train.columns) == ["StudyInstanceUID"] + cols
assert (train[cols].dtypes == "int64").all() and train["StudyInstanceUID"].dtype == object
assert (train["patient_overall"] == train[cols[1:]].max(axis=1)).all()
assert [str(t) for t in boxes.dtypes] == ["object", "float64", "float64", "float64", "float64", "int64"]
segs = {p.stem for p in (raw / "segmentations").glob("*.nii")}
box_ids = set(boxes["StudyInstanceUID"])
assert len(box_ids & segs) >= 3 and len(segs - box_ids) >= 3 and box_ids <= set(train["StudyInstanceUID"])

def pixels(path):
    data = path.read_bytes()
    at, elements = 132, {}
    while at < len(data):
        group, element, vr = struct.unpack_from("<HH2s", data, at)
        if vr in (b"OB", b"OW", b"SQ", b"UN", b"UT"):
            (length,) = struct.unpack_from("<2xI", data, at + 6); at += 12
        else:
            (length,) = struct.unpack_from("<H", data, at + 6); at += 8
        elements[(group, element)] = data[at:at + length]; at += length
    return np.frombuffer(elements[(0x7FE0, 0x10)][:256], np.uint8).reshape(16, 16).astype(float)

def bands(uid):
    img = np.mean([pixels(p) for p in sorted((raw / "train_images" / uid).glob("*.dcm"))], axis=0)
    return np.array([img[[y for y in range(16) if min(6, y * 7 // 16) == v], 4:12].mean() for v in range(7)])

X = np.array([bands(u) for u in train["StudyInstanceUID"]])
Y = train[cols[1:]].to_numpy()
fit, held = slice(0, 40), slice(40, 60)
threshold = (X[fit][Y[fit] == 1].mean() + X[fit][Y[fit] == 0].mean()) / 2
vert = np.where(X[held] > threshold, 0.9, 0.1)
pred = np.column_stack([vert.max(axis=1), vert])
truth = train[cols].to_numpy()[held]

def loss(y, p):
    p = np.clip(p, 1e-15, 1 - 1e-15)
    w = y * np.array([14] + [2] * 7) + (1 - y) * np.array([7] + [1] * 7)
    l = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return np.mean((l * w).sum(axis=1) / w.sum(axis=1))

model, constant = loss(truth, pred), loss(truth, np.full(truth.shape, 0.5))
print(f"held-out weighted log loss: model {model:.3f}, sample submission {constant:.3f}")
assert model < constant - 0.3, (model, constant)
)py";

TEST(RsnaCervicalRawTest, PandasReadsItAndImagesPredictFractures) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult run = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::cout << run.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
