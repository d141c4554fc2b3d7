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
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(BillionWordImputationRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto &[name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("test_v2.txt.zip", "train_v2.txt.zip"));
  EXPECT_LT(total, 1'000'000u);
}

// The archives hold Kaggle's files; pandas reads test_v2.txt with int ids
// and text sentences; and a word-bigram model that inserts the likeliest word
// at the likeliest gap clearly beats the sample submission (the sentence
// left as it is) on held-out train sentences with a word removed.
constexpr char kCheckScript[] = R"py(
import random
import sys
import zipfile
from collections import Counter
from pathlib import Path
import numpy as np
import pandas as pd
from Levenshtein import distance

raw = Path(sys.argv[1])
with zipfile.ZipFile(raw / "train_v2.txt.zip") as z:
    assert z.namelist() == ["train_v2.txt"]
    lines = z.read("train_v2.txt").decode("utf-8").split("\n")
with zipfile.ZipFile(raw / "test_v2.txt.zip") as z:
    assert z.namelist() == ["test_v2.txt"]
test = pd.read_csv(raw / "test_v2.txt.zip")
assert list(test.columns) == ["id", "sentence"] and test["id"].dtype == np.int64
assert test["sentence"].dtype == object and not test["sentence"].isna().any()
assert lines[-1] == "" and all(l == l.strip() and l for l in lines[:-1])
sentences = [l.split() for l in lines[:-1]]
assert len(sentences) == 12000
assert any(len(s) == 2 for s in sentences) and any('"' in s for s in sentences)
assert any(not l.isascii() for l in lines)

fit, held_out = sentences[:11000], [s for s in sentences[11000:] if len(s) > 2]
bigrams, vocabulary = Counter(), Counter()
for s in fit:
    vocabulary.update(s)
    bigrams.update(zip(s, s[1:]))
words = [w for w, _ in vocabulary.most_common(60)]
rng = random.Random(0)
model, sample = [], []
for s in held_out:
    i = rng.randint(1, len(s) - 2)
    removed = s[:i] + s[i + 1:]
    best = (-1.0, 1, words[0])
    for k in range(1, len(removed)):
        prev, nxt = removed[k - 1], removed[k]
        for w in words:
            score = bigrams[prev, w] * bigrams[w, nxt] / (bigrams[prev, nxt] + 1) ** 2
            best = max(best, (score, k, w))
    _, k, w = best
    guess = removed[:k] + [w] + removed[k:]
    model.append(distance(" ".join(s), " ".join(guess)))
    sample.append(distance(" ".join(s), " ".join(removed)))
print(f"bigram model levenshtein={np.mean(model):.3f} sample submission={np.mean(sample):.3f}")
assert np.mean(model) < 0.6 * np.mean(sample), (np.mean(model), np.mean(sample))
)py";

TEST(BillionWordImputationRawTest, KaggleLayoutWithLearnableSignal) {
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
