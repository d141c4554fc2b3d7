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
using ::testing::MatchesRegex;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(Alaska2RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  std::map<std::string, int> per_folder;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    EXPECT_THAT(name, MatchesRegex("(Cover|JMiPOD|JUNIWARD|UERD)/[0-9]{5}\\.jpg"));
    ++per_folder[name.substr(0, name.find('/'))];
  }
  EXPECT_EQ(per_folder, (std::map<std::string, int>{
                            {"Cover", 5040}, {"JMiPOD", 5040}, {"JUNIWARD", 5040}, {"UERD", 5040}}));
  EXPECT_LT(total, 15'000'000u);
}

// Every folder holds the same names; PIL decodes the JPEGs; a threshold on
// high-frequency energy, set on some images, separates stego from cover
// images on others far better than the sample submission's constant 0.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
from PIL import Image

raw = Path(sys.argv[1])
folders = ["Cover", "JMiPOD", "JUNIWARD", "UERD"]
names = sorted(p.name for p in (raw / "Cover").glob("*.jpg"))
assert len(names) == 5040
for f in folders[1:]:
    assert sorted(p.name for p in (raw / f).glob("*.jpg")) == names, f
rng = np.random.default_rng(0)
picked = rng.choice(len(names), 600, replace=False)
def energy(path):
    im = Image.open(path)
    assert im.format == "JPEG" and im.mode == "RGB" and im.size == (8, 8)
    a = np.asarray(im, dtype=np.float64)
    return np.abs(np.diff(a, axis=0)).mean() + np.abs(np.diff(a, axis=1)).mean() - 0.0
x, y = [], []
for k, i in enumerate(picked):
    stego = k % 2 == 1
    folder = folders[1 + k % 3] if stego else "Cover"
    x.append(energy(raw / folder / names[i])); y.append(1 if stego else 0)
x, y = np.array(x), np.array(y)
fit, held = slice(0, 300), slice(300, 600)
best = max(np.unique(x[fit]), key=lambda t: ((x[fit] > t) == y[fit]).mean())
accuracy = ((x[held] > best) == y[held]).mean()
print(f"held-out accuracy={accuracy:.3f} (sample submission: 0.5)")
assert accuracy > 0.85, accuracy
)py";

TEST(Alaska2RawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
