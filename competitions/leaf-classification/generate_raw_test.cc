#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "base/testing/test_util.h"
#include "competitions/leaf-classification/classes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(LeafClassificationRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("images.zip", "sample_submission.csv.zip", "test.csv.zip",
                                 "train.csv.zip"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads the archived CSVs with Kaggle's columns, dtypes and value
// spellings, the images are white-on-black silhouettes named by id, and a
// logistic regression on the features, fitted on upstream's train split,
// has a far lower log loss than the uniform sample submission on the
// held-out leaves. argv[2] is the species list, comma-separated.
constexpr char kCheckScript[] = R"py(
import io, re, sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

raw = Path(sys.argv[1])
classes = sys.argv[2].split(",")
assert len(classes) == 99
def read(stem):
    with zipfile.ZipFile(raw / f"{stem}.csv.zip") as z:
        assert z.testzip() is None
        assert z.namelist() == [f"{stem}.csv"], z.namelist()
        text = z.read(f"{stem}.csv").decode()
        return pd.read_csv(io.StringIO(text), float_precision="round_trip"), text
(train, train_text), (test, _), (sample, _) = read("train"), read("test"), read("sample_submission")
features = [f"{g}{i}" for g in ("margin", "shape", "texture") for i in range(1, 65)]
assert list(train.columns) == ["id", "species"] + features, list(train.columns)[:5]
assert list(test.columns) == ["id"] + features
assert list(sample.columns) == ["id"] + classes
assert train["id"].dtype == np.int64 and train["species"].dtype == object
assert (train[features].dtypes == np.float64).all() and (test[features].dtypes == np.float64).all()
assert not train.isna().any().any() and not test.isna().any().any()
assert len(train) == 594 and len(test) == 396
assert sorted(train["id"].tolist() + test["id"].tolist()) == list(range(1, 991))
assert train["id"].is_monotonic_increasing and test["id"].is_monotonic_increasing
assert list(sample["id"]) == list(test["id"]) and np.allclose(sample[classes], 1 / 99)
assert set(train["species"]) == set(classes) and (train["species"].value_counts() == 6).all()
# Kaggle's spellings: histogram bins in 1/1024 steps with six decimals or
# "0"; shape values near 1/1600.
first = train_text.splitlines()[1].split(",")
assert all(re.fullmatch(r"0|0\.\d{6}", v) for v in first[2:66] + first[130:194]), first[2:10]
for group in ("margin", "texture"):
    values = train[[f"{group}{i}" for i in range(1, 65)]]
    assert np.allclose(values.sum(axis=1), 1, atol=0.04)
    assert np.allclose(values * 1024, np.round(values * 1024), atol=0.001)
assert (train.filter(like="texture") == 0).mean().mean() > 0.03
shape = train.filter(like="shape")
assert shape.min().min() > 5e-5 and shape.max().max() < 0.003

with zipfile.ZipFile(raw / "images.zip") as z:
    assert z.testzip() is None
    names = z.namelist()
    assert names[0] == "images/" and sorted(names[1:]) == sorted(f"images/{i}.jpg" for i in range(1, 991))
    sizes = set()
    for i in (1, 2, 500, 990):
        image = Image.open(io.BytesIO(z.read(f"images/{i}.jpg")))
        assert image.format == "JPEG"
        pixels = np.asarray(image.convert("L"))
        sizes.add(pixels.shape)
        assert pixels[0, 0] < 30 and pixels[pixels.shape[0] // 2, pixels.shape[1] // 2] > 225
        assert 0.1 < (pixels > 128).mean() < 0.6
    assert len(sizes) > 1

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
scaler = StandardScaler().fit(fit[features])
model = LogisticRegression(max_iter=2000).fit(scaler.transform(fit[features]), fit["species"])
proba = np.zeros((len(held_out), 99))
proba[:, [classes.index(c) for c in model.classes_]] = model.predict_proba(scaler.transform(held_out[features]))
loss = log_loss(held_out["species"], proba, labels=classes)
print(f"logistic regression log loss={loss:.3f} sample submission={np.log(99):.3f}")
assert loss < 1.0, loss
)py";

TEST(LeafClassificationRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  const std::string classes = absl::StrJoin(leaf_classification::Classes(), ",");
  for (uint64_t seed : {0, 4}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string(), classes});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::printf("seed %llu: %s", static_cast<unsigned long long>(seed), result.output.c_str());
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
