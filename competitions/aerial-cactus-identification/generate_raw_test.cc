#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(AerialCactusRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv", "test.zip", "train.csv", "train.zip"));
  EXPECT_THAT(tree->at("train.csv"), StartsWith("id,has_cactus\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,has_cactus\n"));
  EXPECT_LT(total, 4'000'000u);
}

TEST(AerialCactusRawTest, OurExtractorUnpacksTheArchives) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 3);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const fs::path out = testing::NewTempDir("extracted");
  ASSERT_TRUE(ExtractZip(*raw / "train.zip", out).ok());
  ASSERT_TRUE(ExtractZip(*raw / "test.zip", out).ok());
  int train = 0, test = 0;
  for (const auto& entry : fs::directory_iterator(out / "train"))
    train += entry.path().extension() == ".jpg";
  for (const auto& entry : fs::directory_iterator(out / "test"))
    test += entry.path().extension() == ".jpg";
  EXPECT_EQ(train, 1500);
  EXPECT_EQ(test, 400);
}

// pandas and zipfile see Kaggle's layout; Pillow decodes every image; the
// mean excess of green over red separates cactus images (AUC > 0.8) while the
// sample submission's constant 0.5 scores an AUC of 0.5.
constexpr char kCheckScript[] = R"py(
import io, sys, tempfile, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["id", "has_cactus"], list(train.columns)
assert train["id"].dtype == object and train["has_cactus"].dtype == np.int64, train.dtypes
assert list(sample.columns) == ["id", "has_cactus"], list(sample.columns)
assert sample["has_cactus"].dtype == np.float64 and (sample["has_cactus"] == 0.5).all()
assert len(train) == 1500 and len(sample) == 400, (len(train), len(sample))
for frame in (train, sample):
    assert frame["id"].str.fullmatch(r"[0-9a-f]{32}\.jpg").all()
    assert frame["id"].is_unique and frame["id"].is_monotonic_increasing
assert not set(train["id"]) & set(sample["id"])
assert set(train["has_cactus"]) == {0, 1}
rate = train["has_cactus"].mean()
assert 0.68 <= rate <= 0.82, rate

def images(zip_path, folder, ids):
    with zipfile.ZipFile(zip_path) as z:
        assert z.testzip() is None
        assert z.namelist() == [f"{folder}/"] + [f"{folder}/{i}" for i in ids], z.namelist()[:3]
        for i in ids:
            im = Image.open(io.BytesIO(z.read(f"{folder}/{i}")))
            assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
            yield np.asarray(im, dtype=np.float64)

green_excess = np.array([(a[:, :, 1] - a[:, :, 0]).mean()
                         for a in images(raw / "train.zip", "train", train["id"])])
list(images(raw / "test.zip", "test", sample["id"]))

# upstream's prepare extracts train.zip into raw/ and reads raw/train/<id>
with tempfile.TemporaryDirectory() as tmp:
    zipfile.ZipFile(raw / "train.zip").extractall(tmp)
    assert sorted(p.name for p in (Path(tmp) / "train").iterdir()) == list(train["id"])

auc = roc_auc_score(train["has_cactus"], green_excess)
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(train["has_cactus"], np.full(len(train), 0.5)) == 0.5
)py";

TEST(AerialCactusRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
