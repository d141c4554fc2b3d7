#include <filesystem>
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

TEST(HotelIdRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name != "train.csv") {
      EXPECT_THAT(name, StartsWith("train_images/"));
      ++images;
    }
  }
  ASSERT_EQ(tree->count("train.csv"), 1u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("image,chain,hotel_id,timestamp\n"));
  EXPECT_GE(images, 240u);
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every row's photo is at
// train_images/<chain>/<image> and decodes; nearest-centroid on colour strips
// ranks the right hotel high on held-out photos (MAP@5 well above the sample
// submission's constant ids, which score 0).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["image", "chain", "hotel_id", "timestamp"], list(train.columns)
assert train["image"].dtype == object and train["timestamp"].dtype == object, train.dtypes
assert train["chain"].dtype == np.int64 and train["hotel_id"].dtype == np.int64, train.dtypes
assert train["image"].str.fullmatch(r"[0-9a-f]{16}\.jpg").all()
assert train["timestamp"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d").all()
assert (train["image"] == "ce27d36c9147cc19.jpg").sum() == 2
assert train["hotel_id"].groupby(train["hotel_id"]).size().min() >= 6

def features(row):
    im = Image.open(raw / "train_images" / str(row.chain) / row.image)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 24)
    a = np.asarray(im, dtype=np.float64)
    return np.concatenate([a[i * 4:(i + 1) * 4].mean(axis=(0, 1)) for i in range(6)])

x = np.array([features(r) for r in train.itertuples()])
y = train["hotel_id"].to_numpy()
rng = np.random.default_rng(0)
test = rng.random(len(train)) < 0.2
hotels = np.unique(y[~test])
centroids = np.array([x[~test][y[~test] == h].mean(axis=0) for h in hotels])
def map5(predicted):
    total = 0.0
    for truth, ranked in zip(y[test], predicted):
        hits = [i for i, p in enumerate(ranked[:5]) if p == truth]
        total += 1.0 / (hits[0] + 1) if hits else 0.0
    return total / test.sum()
distances = ((x[test][:, None, :] - centroids[None]) ** 2).sum(axis=2)
model = map5([hotels[np.argsort(d)[:5]] for d in distances])
sample = map5([[36363, 53586, 18807, 64314, 60181]] * test.sum())
print(f"model={model:.3f} sample={sample:.3f}")
assert model > 0.6 and sample < 0.1, (model, sample)
)py";

TEST(HotelIdRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
