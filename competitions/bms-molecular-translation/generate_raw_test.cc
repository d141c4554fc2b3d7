#include <filesystem>
#include <iostream>
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

TEST(BmsMolecularTranslationRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto &[name, bytes] : *tree) {
    total += bytes.size();
    if (name.starts_with("train/")) {
      ++images;
      EXPECT_THAT(bytes, StartsWith("\x89PNG")) << name;
    }
  }
  EXPECT_EQ(images, 300u);
  EXPECT_EQ(tree->size(), 302u);
  EXPECT_THAT(tree->at("train_labels.csv"), StartsWith("image_id,InChI\n"));
  EXPECT_THAT(tree->at("extra_approved_InChIs.csv"), StartsWith("InChI\nInChI=1S/CH4/h1H4\n"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads the labels with text columns; every image is a PNG at
// train/<id[0]>/<id[1]>/<id[2]>/<id>.png; the labels look like InChI; and a
// nearest-neighbour model on the count of dark pixels, fitted on upstream's
// split, clearly beats the sample submission's water on held-out images.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from Levenshtein import distance
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
labels = pd.read_csv(raw / "train_labels.csv")
extra = pd.read_csv(raw / "extra_approved_InChIs.csv")
assert list(labels.columns) == ["image_id", "InChI"] and list(extra.columns) == ["InChI"]
assert (labels.dtypes == object).all() and labels["image_id"].is_unique
assert labels["image_id"].str.fullmatch(r"[0-9a-f]{12}").all()
assert labels["InChI"].str.match(r"InChI=1S/C\d*H\d+(/c[\d-]+)?/h[\dH,-]+$").all(), labels["InChI"]
assert labels["InChI"].nunique() == 10
files = sorted(p.relative_to(raw / "train").as_posix() for p in (raw / "train").glob("**/*.png"))
assert files == sorted(f"{i[0]}/{i[1]}/{i[2]}/{i}.png" for i in labels["image_id"])

def dark(image_id):
    image = Image.open(raw / "train" / image_id[0] / image_id[1] / image_id[2] / f"{image_id}.png")
    assert image.mode == "L" and image.size == (64, 24)
    return int((np.asarray(image) < 128).sum())

train, test = train_test_split(labels, test_size=0.2, random_state=0)
train_dark = np.array([dark(i) for i in train["image_id"]])
train_inchi = train["InChI"].to_numpy()
model, sample = [], []
for image_id, truth in zip(test["image_id"], test["InChI"]):
    guess = train_inchi[np.argmin(np.abs(train_dark - dark(image_id)))]
    model.append(distance(truth, guess))
    sample.append(distance(truth, "InChI=1S/H2O/h1H2"))
print(f"nearest-neighbour levenshtein={np.mean(model):.3f} sample submission={np.mean(sample):.3f}")
assert np.mean(model) < 0.3 * np.mean(sample), (np.mean(model), np.mean(sample))
)py";

TEST(BmsMolecularTranslationRawTest, KaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 9}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
