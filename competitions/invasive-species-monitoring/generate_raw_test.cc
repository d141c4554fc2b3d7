#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(InvasiveSpeciesRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv.zip", "test.7z", "train.7z",
                                 "train_labels.csv.zip"));
  EXPECT_LT(total, 2'000'000u);
}

// Python has no 7z reader here (no py7zr), so our extractor unpacks the
// images first; pandas reads the zipped CSVs itself. Pillow decodes every
// image; a logistic regression on mean colours, fitted on 300 train images,
// separates the other 100 (AUC > 0.8) where the sample submission's constant
// 0.5 scores 0.5.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

raw, extracted = Path(sys.argv[1]), Path(sys.argv[2])
train = pd.read_csv(raw / "train_labels.csv.zip")
sample = pd.read_csv(raw / "sample_submission.csv.zip")
assert list(train.columns) == ["name", "invasive"], list(train.columns)
assert train["name"].dtype == np.int64 and train["invasive"].dtype == np.int64, train.dtypes
assert list(train["name"]) == list(range(1, 401))
assert set(train["invasive"]) == {0, 1}
assert 0.53 <= train["invasive"].mean() <= 0.73, train["invasive"].mean()
assert list(sample.columns) == ["name", "invasive"]
assert sample["name"].dtype == np.int64 and list(sample["name"]) == list(range(1, 101))
assert sample["invasive"].dtype == np.float64 and (sample["invasive"] == 0.5).all()

def features(folder, names):
    files = sorted(p.name for p in (extracted / folder).iterdir())
    assert files == sorted(f"{n}.jpg" for n in names), files[:3]
    out = []
    for n in names:
        im = Image.open(extracted / folder / f"{n}.jpg")
        assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
        a = np.asarray(im, dtype=np.float64)
        out.append([a[:, :, c].mean() for c in range(3)] + [(a[:, :, 2] - a[:, :, 1]).max()])
    return np.array(out)

x = features("train", train["name"])
features("test", sample["name"])
y = train["invasive"].to_numpy()
model = LogisticRegression(max_iter=1000).fit(x[:300], y[:300])
auc = roc_auc_score(y[300:], model.predict_proba(x[300:])[:, 1])
print(f"held-out auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(y[300:], np.full(100, 0.5)) == 0.5
)py";

TEST(InvasiveSpeciesRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    absl::StatusOr<std::vector<std::string>> names = List7z(*raw / "train.7z");
    ASSERT_TRUE(names.ok()) << names.status();
    ASSERT_EQ(names->size(), 401u);
    EXPECT_EQ(names->back(), "train");  // the directory entry
    const fs::path extracted = testing::NewTempDir("extracted");
    ASSERT_TRUE(Extract7z(*raw / "train.7z", extracted).ok());
    ASSERT_TRUE(Extract7z(*raw / "test.7z", extracted).ok());
    testing::CommandResult result =
        testing::RunPython(kCheckScript, {raw->string(), extracted.string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
