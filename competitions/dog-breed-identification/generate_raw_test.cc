#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "competitions/dog-breed-identification/classes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(DogBreedRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train = 0, test = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train += name.rfind("train/", 0) == 0;
    test += name.rfind("test/", 0) == 0;
  }
  EXPECT_EQ(tree->size(), 2u + 600u + 100u);
  EXPECT_EQ(train, 600u);
  EXPECT_EQ(test, 100u);
  EXPECT_THAT(tree->at("labels.csv"), StartsWith("id,breed\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,affenpinscher,afghan_hound,"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas sees Kaggle's layout with the expected dtypes; Pillow decodes every
// image; a nearest-centroid model on mean colours, fitted on 500 labelled
// images, beats the uniform sample submission's log loss of log(120) by far
// on the other 100.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import log_loss

raw = Path(sys.argv[1])
breeds = sys.argv[2].split(",")
labels = pd.read_csv(raw / "labels.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(labels.columns) == ["id", "breed"], list(labels.columns)
assert labels["id"].dtype == object and labels["breed"].dtype == object, labels.dtypes
assert list(sample.columns) == ["id"] + breeds
assert sample["id"].dtype == object
assert (sample[breeds].dtypes == np.float64).all()
assert np.allclose(sample[breeds].to_numpy(), 1 / 120)
assert len(labels) == 600 and len(sample) == 100
for frame in (labels, sample):
    assert frame["id"].str.fullmatch(r"[0-9a-f]{32}").all()
    assert frame["id"].is_unique
assert labels["id"].is_monotonic_increasing
assert not set(labels["id"]) & set(sample["id"])
assert set(labels["breed"]) == set(breeds)
assert sorted(p.name for p in (raw / "train").iterdir()) == [f"{i}.jpg" for i in labels["id"]]
assert sorted(p.name for p in (raw / "test").iterdir()) == sorted(f"{i}.jpg" for i in sample["id"])

def features(folder, ids):
    rows = []
    for i in ids:
        im = Image.open(raw / folder / f"{i}.jpg")
        assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
        a = np.asarray(im, dtype=np.float64)
        centre = a[13:19, 13:19].reshape(-1, 3).mean(axis=0)
        corners = np.concatenate([a[:3, :3], a[:3, -3:], a[-3:, :3], a[-3:, -3:]]).reshape(-1, 3).mean(axis=0)
        rows.append(np.concatenate([centre, corners]))
    return np.array(rows)

list(features("test", sample["id"]))
x = features("train", labels["id"])
y = labels["breed"].map({b: k for k, b in enumerate(breeds)}).to_numpy()
rng = np.random.RandomState(0)
order = rng.permutation(len(y))
fit, held = order[:500], order[500:]
centroids = np.array([x[fit][y[fit] == k].mean(axis=0) if (y[fit] == k).any() else np.full(6, 128.0)
                      for k in range(120)])
d = ((x[held][:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
logits = -d / 400.0
p = np.exp(logits - logits.max(axis=1, keepdims=True))
p = 0.98 * p / p.sum(axis=1, keepdims=True) + 0.02 / 120
onehot = np.eye(120)[y[held]]
model = log_loss(onehot, p)
uniform = log_loss(onehot, np.full_like(p, 1 / 120))
print(f"model={model:.3f} uniform={uniform:.3f}")
assert model < 2.0 and uniform > 4.7, (model, uniform)
)py";

TEST(DogBreedRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  std::string breeds;
  for (const std::string& breed : dog_breed_identification::Breeds()) {
    breeds += (breeds.empty() ? "" : ",") + breed;
  }
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string(), breeds});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
