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
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(TweetSentimentExtractionRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(tree->at("train.csv"), StartsWith("textID,text,selected_text,sentiment\n"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes; every selected
// text is a non-empty part of its tweet; and a model that keeps neutral tweets
// whole and otherwise keeps the words most often selected in train (upstream's
// split) clearly beats the empty sample submission on held-out rows.
constexpr char kCheckScript[] = R"py(
import sys
from collections import Counter
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
test = pd.read_csv(raw / "test.csv", float_precision="round_trip")
sample = pd.read_csv(raw / "sample_submission.csv", float_precision="round_trip")
assert list(train.columns) == ["textID", "text", "selected_text", "sentiment"]
assert list(test.columns) == ["textID", "text", "sentiment"]
assert list(sample.columns) == ["textID", "selected_text"]
assert len(train) == 3000 and len(test) == 300 == len(sample)
assert (train.dtypes == object).all() and (test.dtypes == object).all()
assert not train.isna().any().any() and not test.isna().any().any()
assert sample["selected_text"].isna().all() and list(sample["textID"]) == list(test["textID"])
for frame in (train, test):
    assert frame["textID"].str.fullmatch(r"[0-9a-f]{10}").all() and frame["textID"].is_unique
    assert set(frame["sentiment"]) == {"neutral", "negative", "positive"}
assert not set(train["textID"]) & set(test["textID"])
assert all(s in t for s, t in zip(train["selected_text"], train["text"]))
assert train["selected_text"].str.split().map(len).min() >= 1
assert train["text"].str.startswith(" ").mean() > 0.1 and train["text"].str.contains(",").mean() > 0.2
assert train["text"].str.contains("[^\x00-\x7f]").any()

def jaccard(a, b):
    a, b = set(a.lower().split()), set(b.lower().split())
    return len(a & b) / (len(a) + len(b) - len(a & b))

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
selected, seen = Counter(), Counter()
for text, span in zip(fit["text"], fit["selected_text"]):
    for word in set(text.lower().split()):
        seen[word] += 1
    for word in set(span.lower().split()):
        selected[word] += 1
def predict(text, sentiment):
    if sentiment == "neutral":
        return text
    words = [w for w in text.split() if selected[w.lower()] > 0.6 * seen[w.lower()]]
    return " ".join(words) or text
model = np.mean([jaccard(predict(t, s), y) for t, s, y in
                 zip(held_out["text"], held_out["sentiment"], held_out["selected_text"])])
whole = np.mean([jaccard(t, y) for t, y in zip(held_out["text"], held_out["selected_text"])])
print(f"model jaccard={model:.3f} whole tweet={whole:.3f} sample submission=0")
assert model > 0.65 and model > whole + 0.15, (model, whole)
)py";

TEST(TweetSentimentExtractionRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
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
