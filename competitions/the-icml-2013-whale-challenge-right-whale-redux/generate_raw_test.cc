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
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(RightWhaleReduxRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sampleSubmission.csv", "test2.zip", "train2.zip"));
  EXPECT_THAT(tree->at("sampleSubmission.csv"), StartsWith("clip,probability\n"));
  EXPECT_LT(total, 2'000'000u);
}

// zipfile and pandas see Kaggle's layout; aifc reads every clip (mono,
// 16-bit, 2 kHz); upstream's day split finds four training days; energy
// moving from 80-160 Hz in the first half to 160-260 Hz in the second
// separates up-calls (AUC > 0.8) while the sample submission's constant 0
// scores 0.5.
constexpr char kCheckScript[] = R"py(
import io, re, sys, warnings, zipfile
from pathlib import Path
warnings.simplefilter("ignore", DeprecationWarning)
import aifc
import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
sample = pd.read_csv(raw / "sampleSubmission.csv")
assert list(sample.columns) == ["clip", "probability"] and sample["probability"].dtype == np.int64
assert (sample["probability"] == 0).all() and len(sample) == 60

def clips(name, folder):
    with zipfile.ZipFile(raw / name) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert names[0] == f"{folder}/", names[0]
        for n in names[1:]:
            assert n.startswith(f"{folder}/"), n
            with aifc.open(io.BytesIO(z.read(n))) as f:
                assert (f.getnchannels(), f.getsampwidth(), f.getframerate()) == (1, 2, 2000)
                yield n[len(folder) + 1:], np.frombuffer(f.readframes(f.getnframes()), ">i2").astype(float)

def upsweep(wave):
    half = len(wave) // 2
    def band(x, lo, hi):
        power = np.abs(np.fft.rfft(x)) ** 2
        freqs = np.fft.rfftfreq(len(x), 1 / 2000)
        return power[(freqs >= lo) & (freqs < hi)].sum()
    first, second = wave[:half], wave[half:]
    return (band(first, 80, 160) + band(second, 160, 260)
            - band(first, 160, 260) - band(second, 80, 160))

train = list(clips("train2.zip", "train2"))
test = list(clips("test2.zip", "test2"))
assert len(train) == 200 and len(test) == 60
pattern = re.compile(r"(\d{8})_\d{6}_\d{3}s\dms_TRAIN(\d+)_([01])\.aif")
matches = [pattern.fullmatch(n) for n, _ in train]
assert all(matches), [n for (n, _), m in zip(train, matches) if not m][:3]
assert sorted(int(m.group(2)) for m in matches) == list(range(200))
assert len({m.group(1) for m in matches}) == 4  # upstream asserts four days
assert all(re.fullmatch(r"\d{8}_\d{6}_\d{3}s\dms_Test\d+\.aif", n) for n, _ in test)
assert [n for n, _ in test] == sorted(sample["clip"], key=lambda n: int(n.split("Test")[1][:-4]))
labels = np.array([int(m.group(3)) for m in matches])
assert 0.15 <= labels.mean() <= 0.35, labels.mean()
auc = roc_auc_score(labels, [upsweep(w) for _, w in train])
print(f"auc={auc:.3f}")
assert auc > 0.8, auc
assert roc_auc_score(labels, np.zeros(len(labels))) == 0.5
)py";

TEST(RightWhaleReduxRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
