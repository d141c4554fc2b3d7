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
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(FreesoundRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("FSDKaggle2019.meta.zip", "sample_submission.csv", "test.zip",
                                 "train_curated.csv", "train_curated.zip", "train_noisy.csv",
                                 "train_noisy.zip"));
  EXPECT_THAT(tree->at("train_curated.csv"), StartsWith("fname,labels\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("fname,Accelerating_and_revving"));
  EXPECT_LT(total, 4'000'000u);
}

// pandas reads the CSVs with the expected dtypes; the archives hold the
// listed clips as WAV files Python's `wave` reads; the metadata marks the
// clips of test.zip "Private"; and a nearest-centroid model on the clips'
// spectra, fitted on train_curated, beats the all-zero sample submission by
// far under upstream's lwlrap on the private test clips.
constexpr char kCheckScript[] = R"py(
import io, sys, wave, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.metrics import label_ranking_average_precision_score

raw = Path(sys.argv[1])
curated = pd.read_csv(raw / "train_curated.csv")
noisy = pd.read_csv(raw / "train_noisy.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
classes = list(sample.columns[1:])
assert len(classes) == 80 and sample.columns[0] == "fname"
assert (sample[classes].dtypes == "int64").all() and (sample[classes] == 0).all().all()
for frame in (curated, noisy):
    assert list(frame.columns) == ["fname", "labels"] and frame["fname"].dtype == object
    assert frame["fname"].str.fullmatch(r"[0-9a-f]{8}\.wav").all()
    assert all(set(l.split(",")) <= set(classes) for l in frame["labels"])
with zipfile.ZipFile(raw / "FSDKaggle2019.meta.zip") as z:
    meta = pd.read_csv(io.BytesIO(z.read("FSDKaggle2019.meta/test_post_competition.csv")))
assert list(meta.columns) == ["fname", "labels", "usage", "freesound_id", "license"]
private = meta[meta["usage"] == "Private"]
assert set(private["fname"]) == set(sample["fname"]) and (meta["usage"] == "Public").sum() == 10

def clips(name):
    out = {}
    with zipfile.ZipFile(raw / name) as z:
        for n in z.namelist():
            with wave.open(io.BytesIO(z.read(n))) as w:
                assert w.getnchannels() == 1 and w.getsampwidth() == 2
                out[n] = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float)
    return out

train_audio, noisy_audio, test_audio = clips("train_curated.zip"), clips("train_noisy.zip"), clips("test.zip")
assert set(train_audio) == set(curated["fname"]) and set(noisy_audio) == set(noisy["fname"])
assert set(test_audio) == set(sample["fname"])

def spectrum(x):
    s = np.abs(np.fft.rfft(x)); return s / np.linalg.norm(s)

def many_hot(labels):
    return np.array([[1 if c in l.split(",") else 0 for c in classes] for l in labels])

X = np.array([spectrum(train_audio[f]) for f in curated["fname"]])
Y = many_hot(curated["labels"])
centroids = (Y.T @ X) / np.maximum(Y.sum(axis=0), 1)[:, None]
truth = many_hot(private["labels"])
scores = np.array([spectrum(test_audio[f]) for f in private["fname"]]) @ centroids.T

def lwlrap(truth, scores):
    w = truth.sum(axis=1)
    return label_ranking_average_precision_score(truth > 0, scores, sample_weight=w)

model, baseline = lwlrap(truth, scores), lwlrap(truth, np.zeros_like(scores, dtype=float))
print(f"private test lwlrap: model {model:.3f}, sample submission {baseline:.3f}")
assert model > 0.8 and baseline < 0.1, (model, baseline)
)py";

TEST(FreesoundRawTest, PandasReadsItAndSpectraPredictLabels) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult run = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::cout << run.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
