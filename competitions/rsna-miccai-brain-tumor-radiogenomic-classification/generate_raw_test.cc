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

TEST(RsnaMiccaiRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, dicoms = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.size() > 4 && name.substr(name.size() - 4) == ".dcm") {
      ++dicoms;
      EXPECT_EQ(bytes.substr(128, 4), "DICM") << name;
    }
  }
  EXPECT_EQ(dicoms, (120u + 20u) * 4 * 3);
  EXPECT_THAT(tree->at("train_labels.csv"), StartsWith("BraTS21ID,MGMT_value\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("BraTS21ID,MGMT_value\n"));
  EXPECT_LT(total, 4'000'000u);
}

// pandas reads Kaggle's layout with upstream's dtypes; a DICOM walker written
// from the standard (no pydicom here) reads every slice; the mean FLAIR
// intensity of a case separates the labels (AUC > 0.75) on train, while the
// sample submission's constant scores 0.5.
constexpr char kCheckScript[] = R"py(
import struct, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train_labels.csv", dtype={"BraTS21ID": str, "MGMT_value": int})
sample = pd.read_csv(raw / "sample_submission.csv", dtype={"BraTS21ID": str})
assert list(train.columns) == ["BraTS21ID", "MGMT_value"]
assert list(sample.columns) == ["BraTS21ID", "MGMT_value"]
assert len(train) == 120 and len(sample) == 20
assert (sample["MGMT_value"] == 0.5).all()
for frame in (train, sample):
    assert frame["BraTS21ID"].str.fullmatch(r"[0-9]{5}").all()
    assert frame["BraTS21ID"].is_unique and frame["BraTS21ID"].is_monotonic_increasing
assert not set(train["BraTS21ID"]) & set(sample["BraTS21ID"])
assert 0.3 < train["MGMT_value"].mean() < 0.7
assert set(p.name for p in (raw / "train").iterdir()) == set(train["BraTS21ID"])
assert set(p.name for p in (raw / "test").iterdir()) == set(sample["BraTS21ID"])

def read_dicom(path):
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
    return elements, np.frombuffer(elements[(0x7FE0, 0x10)][:rows * cols], np.uint8).reshape(rows, cols)

def flair_mean(case_dir):
    series = sorted(p.name for p in case_dir.iterdir())
    assert series == ["FLAIR", "T1w", "T1wCE", "T2w"], series
    for s in series:
        files = sorted(p.name for p in (case_dir / s).iterdir())
        assert files == ["Image-1.dcm", "Image-2.dcm", "Image-3.dcm"], files
        for f in files:
            elements, pixels = read_dicom(case_dir / s / f)
            assert elements[(0x10, 0x20)].strip() == case_dir.name.encode()
            assert elements[(2, 0x10)].rstrip(b"\0") == b"1.2.840.10008.1.2.1"
    return np.mean([read_dicom(case_dir / "FLAIR" / f)[1].mean() for f in files])

score = [flair_mean(raw / "train" / i) for i in train["BraTS21ID"]]
[flair_mean(raw / "test" / i) for i in sample["BraTS21ID"]]
auc = roc_auc_score(train["MGMT_value"], score)
print(f"auc={auc:.3f}")
assert auc > 0.75, auc
assert roc_auc_score(train["MGMT_value"], np.full(len(train), 0.5)) == 0.5
)py";

TEST(RsnaMiccaiRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
