#include <filesystem>
#include <iostream>
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

TEST(DogsVsCatsRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv", "test.zip", "train.zip"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,label\n1,0.5\n2,0.5\n"));
  EXPECT_LT(total, 3'000'000u);
}

TEST(DogsVsCatsRawTest, OurExtractorUnpacksTheArchives) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 3);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const fs::path out = testing::NewTempDir("extracted");
  ASSERT_TRUE(ExtractZip(*raw / "train.zip", out).ok());
  ASSERT_TRUE(ExtractZip(*raw / "test.zip", out).ok());
  int cats = 0, dogs = 0, test = 0;
  for (const auto& entry : fs::directory_iterator(out / "train")) {
    const std::string name = entry.path().filename().string();
    cats += name.rfind("cat.", 0) == 0;
    dogs += name.rfind("dog.", 0) == 0;
  }
  for (const auto& entry : fs::directory_iterator(out / "test")) {
    test += entry.path().extension() == ".jpg";
  }
  EXPECT_GE(cats, 240);
  EXPECT_LE(cats, 260);
  EXPECT_GE(dogs, 240);
  EXPECT_LE(dogs, 260);
  EXPECT_GE(test, 90);
  EXPECT_LE(test, 110);
}

// pandas and zipfile see Kaggle's layout; Pillow decodes every image; a
// logistic regression on downsampled pixels, fitted on 80% of the labelled
// images, beats the sample submission's constant 0.5 (log loss log 2) clearly
// on the other 20%.
constexpr char kCheckScript[] = R"py(
import io, re, sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss

raw = Path(sys.argv[1])
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["id", "label"], list(sample.columns)
assert sample["id"].dtype == np.int64 and sample["label"].dtype == np.float64, sample.dtypes
assert (sample["label"] == 0.5).all()
assert list(sample["id"]) == list(range(1, len(sample) + 1))

def images(zip_path, folder):
    with zipfile.ZipFile(zip_path) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert names[0] == f"{folder}/", names[:2]
        for name in names[1:]:
            im = Image.open(io.BytesIO(z.read(name)))
            assert im.format == "JPEG" and im.mode == "RGB" and im.size == (32, 32)
            yield name[len(folder) + 1:], np.asarray(im, dtype=np.float64)

test = dict(images(raw / "test.zip", "test"))
assert sorted(test) == sorted(f"{i}.jpg" for i in sample["id"]), sorted(test)[:3]
train = list(images(raw / "train.zip", "train"))
for name, _ in train:
    assert re.fullmatch(r"(cat|dog)\.(0|[1-9][0-9]*)\.jpg", name), name
for animal in ("cat", "dog"):
    numbers = sorted(int(n.split(".")[1]) for n, _ in train if n.startswith(animal))
    assert numbers == list(range(len(numbers))), animal

y = np.array([int("dog" in name) for name, _ in train])
x = np.array([a.reshape(8, 4, 8, 4, 3).mean(axis=(1, 3)).ravel() / 255 for _, a in train])
rng = np.random.RandomState(0)
order = rng.permutation(len(y))
fit, held = order[: len(y) * 4 // 5], order[len(y) * 4 // 5 :]
model = LogisticRegression(C=0.1, max_iter=2000).fit(x[fit], y[fit])
p = model.predict_proba(x[held])[:, 1]
loss = log_loss(y[held], p)
constant = log_loss(y[held], np.full(len(held), 0.5))
print(f"model={loss:.3f} constant={constant:.3f}")
assert loss < 0.5 and abs(constant - np.log(2)) < 1e-12, (loss, constant)
)py";

TEST(DogsVsCatsRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
