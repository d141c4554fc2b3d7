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

TEST(SiimCovid19RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_GE(dicoms, 90u);  // one or two films per study
  EXPECT_THAT(tree->at("train_study_level.csv"),
              StartsWith("id,Negative for Pneumonia,Typical Appearance,Indeterminate Appearance,"
                         "Atypical Appearance\n"));
  EXPECT_THAT(tree->at("train_image_level.csv"), StartsWith("id,boxes,label,StudyInstanceUID\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,PredictionString\n"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads Kaggle's layout with the dtypes upstream relies on; a DICOM
// walker written from the standard (no pydicom here) reads every film; a
// rule on where a film is bright (no patch: negative; both lungs: typical;
// one lung: indeterminate; the centre: atypical) labels most studies and
// finds the opacity films, far better than the sample submission's
// "negative" and "none".
constexpr char kCheckScript[] = R"py(
import ast, re, struct, sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
studies = pd.read_csv(raw / "train_study_level.csv")
images = pd.read_csv(raw / "train_image_level.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
labels = ["Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance", "Atypical Appearance"]
assert list(studies.columns) == ["id"] + labels
assert list(images.columns) == ["id", "boxes", "label", "StudyInstanceUID"]
assert list(sample.columns) == ["id", "PredictionString"]
assert all(studies[c].dtype == np.int64 for c in labels)
assert (studies[labels].sum(axis=1) == 1).all()
assert studies["id"].str.fullmatch(r"[0-9a-f]{12}_study").all() and studies["id"].is_unique
assert images["id"].str.fullmatch(r"[0-9a-f]{12}_image").all() and images["id"].is_unique
assert images["StudyInstanceUID"].dtype == object
assert set(images["StudyInstanceUID"] + "_study") == set(studies["id"])
assert len(studies) == 80

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
    return np.frombuffer(elements[(0x7FE0, 0x10)][:rows * cols], np.uint8).reshape(rows, cols)

films = {}
for path in (raw / "train").glob("*/*/*.dcm"):
    films[path.stem + "_image"] = (path.parts[-3], read_dicom(path))
assert set(films) == set(images["id"])
for _, row in images.iterrows():
    assert films[row["id"]][0] == row["StudyInstanceUID"]
    if row["label"] == "none 1 0 0 1 1":
        assert pd.isna(row["boxes"])
    else:
        boxes = ast.literal_eval(row["boxes"])
        toks = row["label"].split()
        assert len(toks) == 6 * len(boxes) and toks[::6] == ["opacity"] * len(boxes)
        for i, b in enumerate(boxes):
            assert abs(float(toks[6 * i + 4]) - (b["x"] + b["width"])) < 1e-4
test_films = list((raw / "test").glob("*/*/*.dcm"))
assert len(sample) == len(list((raw / "test").iterdir())) + len(test_films)

def predict(pixels):
    bright = pixels > 100
    left, centre, right = bright[:, :11].mean(), bright[:, 11:21].mean(), bright[:, 21:].mean()
    if max(left, centre, right) < 0.05:
        return 0
    if left > 0.1 and right > 0.1:
        return 1
    if centre > max(left, right):
        return 3
    return 2

truth = dict(zip(studies["id"], np.argmax(studies[labels].values, axis=1)))
study_hits = [predict(pixels) == truth[study + "_study"] for study, pixels in films.values()]
opacity_hits = [(predict(films[i][1]) > 0) == (l != "none 1 0 0 1 1") for i, l in zip(images["id"], images["label"])]
baseline = np.mean([truth[s + "_study"] == 0 for s, _ in films.values()])
none_baseline = np.mean(images["label"] == "none 1 0 0 1 1")
print(f"study accuracy {np.mean(study_hits):.3f} vs {baseline:.3f}; opacity {np.mean(opacity_hits):.3f} vs {none_baseline:.3f}")
assert np.mean(study_hits) > 0.8 and baseline < 0.5
assert np.mean(opacity_hits) > 0.95 and none_baseline < 0.5
)py";

TEST(SiimCovid19RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
