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
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(MlspBirdsRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  for (const auto& [name, bytes] : *tree) names.push_back(name);
  EXPECT_THAT(names, ElementsAre("mlsp_contest_dataset.zip"));
  EXPECT_LT(tree->at("mlsp_contest_dataset.zip").size(), 4'000'000u);
}

// zipfile, pandas, wave and Pillow read Kaggle's layout; the labelled fold
// has the 322 recordings upstream's split expects; the spectrum's energy at
// each species' pitch predicts presence (pooled AUC > 0.85 over (recording,
// species) pairs, as the grader pools them) while the sample submission's
// constant scores 0.5.
constexpr char kCheckScript[] = R"py(
import io, sys, wave, zipfile
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import roc_auc_score

z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
root = "mlsp_contest_dataset/"
ess, sup = root + "essential_data/", root + "supplemental_data/"
folds = pd.read_csv(z.open(ess + "CVfolds_2.txt"))
names = pd.read_csv(z.open(ess + "rec_id2filename.txt"))
species = pd.read_csv(z.open(ess + "species_list.txt"))
assert list(folds.columns) == ["rec_id", "fold"] and folds["fold"].dtype == np.int64
assert list(names.columns) == ["rec_id", "filename"] and list(species.columns) == ["class_id", "code", "species"]
assert (folds["fold"] == 0).sum() == 322 and round(0.2 * 322) == 64
assert list(folds["rec_id"]) == list(names["rec_id"]) == list(range(len(folds)))
assert len(species) == 19
lines = z.read(ess + "rec_labels_test_hidden.txt").decode().splitlines()
assert lines[0] == "rec_id,[labels]" and len(lines) == len(folds) + 1
labels = {}
for line, fold in zip(lines[1:], folds["fold"]):
    rec, _, rest = line.partition(",")
    if fold == 1:
        assert rest == "?"
    else:
        labels[int(rec)] = {int(s) for s in rest.split(",") if s}
for f in ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"):
    rows = z.read(sup + f).decode().splitlines()[1:]
    assert all(int(r.split(",")[0]) in set(folds["rec_id"]) for r in rows)
for f in ("segment_clusters.bmp", "segment_mosaic.bmp"):
    assert Image.open(io.BytesIO(z.read(sup + f))).format == "BMP"
pitches = 300 + 180 * np.arange(19)
y, score = [], []
for rec, name in zip(names["rec_id"], names["filename"]):
    for d in ("spectrograms", "filtered_spectrograms", "supervised_segmentation"):
        im = Image.open(io.BytesIO(z.read(f"{sup}{d}/{name}.bmp")))
        assert im.format == "BMP" and im.size == (19, 8)
    with wave.open(io.BytesIO(z.read(f"{ess}src_wavs/{name}.wav"))) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == 8000
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float)
    if rec not in labels:
        continue
    t = np.arange(len(x)) / 8000
    energy = np.abs(np.exp(-2j * np.pi * np.outer(pitches, t)) @ x)
    for s in range(19):
        y.append(int(s in labels[rec])); score.append(energy[s])
auc = roc_auc_score(y, score)
print(f"auc={auc:.3f}")
assert auc > 0.85, auc
assert roc_auc_score(y, np.zeros(len(y))) == 0.5
)py";

TEST(MlspBirdsRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result =
        testing::RunPython(kCheckScript, {(*raw / "mlsp_contest_dataset.zip").string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
