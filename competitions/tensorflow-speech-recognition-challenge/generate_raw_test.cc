#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "formats/seven_zip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(SpeechRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.7z", "test.7z", "train.7z"));
  EXPECT_LT(total, 3'000'000u);
}

// Python has no 7z reader here (no py7zr), so our extractor unpacks the
// archives; Python's wave module reads every clip, pandas the sample
// submission. A nearest-centroid classifier on each clip's dominant
// frequency, fitted on two thirds of the labelled clips of every word,
// labels the rest far better than the sample submission's "silence" (which
// matches no folder name).
constexpr char kCheckScript[] = R"py(
import sys, wave
from pathlib import Path
import numpy as np
import pandas as pd

root = Path(sys.argv[1])
audio = root / "train" / "audio"
words = sorted(p.name for p in audio.iterdir())
assert words == sorted(["yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go",
                        "bed", "cat", "happy", "_background_noise_"]), words
for name in ["validation_list.txt", "testing_list.txt", "LICENSE"]:
    assert (root / "train" / name).is_file(), name
for line in (root / "train" / "validation_list.txt").read_text().split():
    assert (audio / line).is_file(), line

def read(path):
    with wave.open(str(path), "rb") as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (16000, 1, 2), path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)

def peak(x):
    spectrum = np.abs(np.fft.rfft(x))
    return np.argmax(spectrum[1:]) + 1

fit, held = {}, []
for word in words:
    clips = sorted((audio / word).glob("*.wav"))
    assert clips, word
    for path in clips:
        assert path.name.count("_nohash_") == 1 or word == "_background_noise_", path
        x = read(path)
        assert len(x) == (16000 if word == "_background_noise_" else 4000), (path, len(x))
    if word == "_background_noise_":
        continue
    peaks = [peak(read(p)) for p in clips]
    cut = 2 * len(peaks) // 3
    fit[word] = np.mean(peaks[:cut])
    held += [(p, word) for p in peaks[cut:]]
names = list(fit)
centroids = np.array([fit[w] for w in names])
predicted = [names[int(np.argmin(np.abs(centroids - p)))] for p, _ in held]
accuracy = np.mean([p == w for p, (_, w) in zip(predicted, held)])
print(f"held-out accuracy={accuracy:.3f} on {len(held)} clips")
assert accuracy > 0.8, accuracy
assert all(w != "silence" for _, w in held)

sample = pd.read_csv(root / "sample_submission.csv")
assert list(sample.columns) == ["fname", "label"] and len(sample) == 20
assert sample["fname"].dtype == object and (sample["label"] == "silence").all()
assert sample["fname"].str.fullmatch(r"clip_[0-9a-f]{9}\.wav").all()
tests = sorted(p.name for p in (root / "test" / "audio").iterdir())
assert tests == sorted(sample["fname"]), tests[:3]
for name in tests:
    assert len(read(root / "test" / "audio" / name)) == 4000
)py";

TEST(SpeechRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    const fs::path extracted = testing::NewTempDir("extracted");
    for (const char* archive : {"train.7z", "test.7z", "sample_submission.7z"}) {
      absl::Status s = Extract7z(*raw / archive, extracted);
      ASSERT_TRUE(s.ok()) << archive << ": " << s;
    }
    testing::CommandResult result = testing::RunPython(kCheckScript, {extracted.string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
