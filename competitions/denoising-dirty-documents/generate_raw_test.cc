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

TEST(DenoisingRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  for (const char* name : {"train.zip", "train_cleaned.zip", "test.zip", "sampleSubmission.csv"}) {
    EXPECT_EQ(tree->count(name), 1u) << name;
  }
  EXPECT_EQ(tree->size(), 4u);
  EXPECT_THAT(tree->at("sampleSubmission.csv"), StartsWith("id,value\n"));
  EXPECT_LT(total, 500'000u);
}

// The zips hold <dir>/<n>.png 8-bit gray pages that PIL reads, train and
// train_cleaned pair up; a threshold learnt on some pages cleans the others
// far better than the sample submission's constant 1.
constexpr char kCheckScript[] = R"py(
import io, sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image

raw = Path(sys.argv[1])
def pages(zip_name, folder):
    with zipfile.ZipFile(raw / zip_name) as z:
        names = z.namelist()
        assert names[0] == folder + "/", names[:2]
        out = {}
        for name in names[1:]:
            assert name.startswith(folder + "/") and name.endswith(".png"), name
            im = Image.open(io.BytesIO(z.read(name)))
            assert im.format == "PNG" and im.mode == "L" and im.size == (32, 20), (im.mode, im.size)
            out[name.split("/")[1]] = np.asarray(im, dtype=np.float64) / 255.0
        return out
train, clean, test = pages("train.zip", "train"), pages("train_cleaned.zip", "train_cleaned"), pages("test.zip", "test")
assert set(train) == set(clean) and not set(train) & set(test) and len(train) == 30
sample = pd.read_csv(raw / "sampleSubmission.csv")
assert list(sample.columns) == ["id", "value"] and (sample["value"] == 1).all()
assert len(sample) == len(test) * 640 and sample["id"].str.fullmatch(r"\d+_\d+_\d+").all()

names = sorted(train)
fit, held = names[:20], names[20:]
x = np.concatenate([train[n].ravel() for n in fit]); y = np.concatenate([clean[n].ravel() for n in fit])
best = min(np.linspace(0.05, 0.95, 91), key=lambda t: np.mean((np.where(x > t, 1.0, 0.15) - y) ** 2))
xh = np.concatenate([train[n].ravel() for n in held]); yh = np.concatenate([clean[n].ravel() for n in held])
model = np.sqrt(np.mean((np.where(xh > best, 1.0, 0.15) - yh) ** 2))
baseline = np.sqrt(np.mean((1.0 - yh) ** 2))
print(f"model={model:.3f} sample={baseline:.3f}")
assert model < 0.6 * baseline, (model, baseline)
)py";

TEST(DenoisingRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
