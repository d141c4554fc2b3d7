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

TEST(WhaleRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name != "train.csv") {
      EXPECT_THAT(name, StartsWith("train/"));
      ++images;
    }
  }
  ASSERT_EQ(tree->count("train.csv"), 1u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("Image,Id\n"));
  EXPECT_GE(images, 180u);
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns; every photo decodes; a held-out photo of
// each known whale is matched by nearest centroid (new_whale ranked second),
// which beats the sample submission's constant ranking on MAP@5.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["Image", "Id"], list(train.columns)
assert train["Image"].dtype == object and train["Id"].dtype == object, train.dtypes
assert train["Image"].str.fullmatch(r"[0-9a-f]{8}\.jpg").all() and train["Image"].is_unique
assert train["Id"].str.fullmatch(r"w_[0-9a-f]{7}|new_whale").all()
counts = train["Id"].value_counts()
assert counts["new_whale"] >= 20 and (counts == 1).sum() >= 20 and (counts >= 3).sum() >= 10

def pixels(name):
    im = Image.open(raw / "train" / name)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
    return np.asarray(im, dtype=np.float64).ravel()

x = np.array([pixels(n) for n in train["Image"]])
ids = train["Id"].to_numpy()
held = np.zeros(len(train), dtype=bool)
for whale, group in train.groupby("Id").groups.items():
    if whale != "new_whale" and len(group) >= 2:
        held[group[0]] = True
held[np.flatnonzero(ids == "new_whale")[::3]] = True
known = sorted(set(ids[~held]) - {"new_whale"})
centroids = np.array([x[~held][ids[~held] == w].mean(axis=0) for w in known])

def ap5(truth, ranked):
    ranked = ranked[:5]
    return 1.0 / (ranked.index(truth) + 1) if truth in ranked else 0.0

model, sample = [], []
for features, truth in zip(x[held], ids[held]):
    order = np.argsort(((centroids - features) ** 2).sum(axis=1))
    ranked = [known[order[0]], "new_whale"] + [known[i] for i in order[1:4]]
    model.append(ap5(truth, ranked))
    sample.append(ap5(truth, "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46".split(" ")))
print(f"model={np.mean(model):.3f} sample={np.mean(sample):.3f}")
assert np.mean(model) > np.mean(sample) + 0.3, (np.mean(model), np.mean(sample))
)py";

TEST(WhaleRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
