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

TEST(RsnaBreastCancerRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_dicoms = 0, test_dicoms = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.size() > 4 && name.substr(name.size() - 4) == ".dcm") {
      EXPECT_EQ(bytes.substr(128, 4), "DICM") << name;
      (name.rfind("train_images/", 0) == 0 ? train_dicoms : test_dicoms)++;
    }
  }
  EXPECT_GE(train_dicoms, 120u * 4);
  EXPECT_EQ(test_dicoms, 4u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("site_id,patient_id,image_id,laterality,view,"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith("site_id,patient_id,image_id,laterality,view,"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("prediction_id,cancer\n"));
  EXPECT_LT(total, 4'000'000u);
}

// pandas reads the CSVs with Kaggle's dtypes; every row has its DICOM file
// (pixels read from the standard's layout, no pydicom here); a breast's views
// share one label; a threshold on a breast's mean intensity, fitted on the
// first 80% of the patients, beats the sample submission's constant
// (the train cancer rate) on the other 20% under upstream's probabilistic F1.
constexpr char kCheckScript[] = R"py(
import struct, sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
test = pd.read_csv(raw / "test.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
expected = {"site_id": "int64", "patient_id": "int64", "image_id": "int64",
            "laterality": "object", "view": "object", "age": "float64", "cancer": "int64",
            "biopsy": "int64", "invasive": "int64", "BIRADS": "float64", "implant": "int64",
            "density": "object", "machine_id": "int64", "difficult_negative_case": "bool"}
assert {c: str(t) for c, t in train.dtypes.items()} == expected, train.dtypes
assert list(test.columns) == ["site_id", "patient_id", "image_id", "laterality", "view", "age",
                              "implant", "machine_id", "prediction_id"]
assert list(sample.columns) == ["prediction_id", "cancer"]
assert set(train["laterality"]) == {"L", "R"} and set(train["view"]) <= {"CC", "MLO"}
assert train["image_id"].is_unique and train["patient_id"].is_monotonic_increasing
assert train.groupby(["patient_id", "laterality"])["cancer"].nunique().max() == 1
assert 0.15 < train["cancer"].mean() < 0.35
assert train["patient_id"].nunique() == 120
assert set(sample["prediction_id"]) == set(test["prediction_id"])

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
    assert elements[(0x8, 0x60)].rstrip(b" ") == b"MG"
    rows = struct.unpack("<H", elements[(0x28, 0x10)])[0]
    cols = struct.unpack("<H", elements[(0x28, 0x11)])[0]
    return np.frombuffer(elements[(0x7FE0, 0x10)][:rows * cols], np.uint8)

for frame, folder in ((train, "train_images"), (test, "test_images")):
    files = {p.relative_to(raw / folder).as_posix() for p in (raw / folder).rglob("*.dcm")}
    assert files == {f"{p}/{i}.dcm" for p, i in zip(frame["patient_id"], frame["image_id"])}

train["bright"] = [pixels(raw / "train_images" / str(p) / f"{i}.dcm").mean()
                   for p, i in zip(train["patient_id"], train["image_id"])]
breasts = train.groupby(["patient_id", "laterality"]).agg(
    cancer=("cancer", "first"), bright=("bright", "mean")).reset_index()
patients = sorted(breasts["patient_id"].unique())
fit = breasts[breasts["patient_id"].isin(patients[:96])]
held = breasts[~breasts["patient_id"].isin(patients[:96])]

def pf1(labels, predictions):
    ctp = float(np.sum(predictions[labels == 1])); cfp = float(np.sum(predictions[labels == 0]))
    precision, recall = ctp / (ctp + cfp), ctp / max(1, int(np.sum(labels == 1)))
    return 0.0 if precision <= 0 or recall <= 0 else 2 * precision * recall / (precision + recall)

best = max(np.unique(fit["bright"]),
           key=lambda t: pf1(fit["cancer"].values, (fit["bright"].values >= t).astype(float)))
model = pf1(held["cancer"].values, (held["bright"].values >= best).astype(float))
constant = pf1(held["cancer"].values, np.full(len(held), train["cancer"].mean()))
print(f"held-out pF1: threshold {model:.3f}, constant {constant:.3f}")
assert held["cancer"].sum() >= 3
assert model > constant + 0.3, (model, constant)
)py";

TEST(RsnaBreastCancerRawTest, PandasReadsItAndImagesPredictCancer) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult run = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::cout << run.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
