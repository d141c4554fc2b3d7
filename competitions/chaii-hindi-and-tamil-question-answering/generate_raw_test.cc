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

TEST(ChaiiRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("id,context,question,answer_text,answer_start,language\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes; every answer sits
// in its context at answer_start (Python's code-point offset); and a reader
// that finds the question's words in the context and answers with the words
// after them (upstream's split of train.csv, upstream's metric) clearly
// beats the "dummy text" sample submission, which scores 0.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
test = pd.read_csv(raw / "test.csv", float_precision="round_trip")
sample = pd.read_csv(raw / "sample_submission.csv", float_precision="round_trip")
assert list(train.columns) == ["id", "context", "question", "answer_text", "answer_start", "language"]
assert list(test.columns) == ["id", "context", "question", "language"]
assert list(sample.columns) == ["id", "PredictionString"]
assert len(train) == 1000 and len(test) == 100 == len(sample)
assert train["answer_start"].dtype == np.int64
assert (train.drop(columns="answer_start").dtypes == object).all()
assert not train.isna().any().any() and not test.isna().any().any()
assert list(sample["id"]) == list(test["id"])
for frame in (train, test):
    assert frame["id"].str.fullmatch(r"[0-9a-f]{9}").all() and frame["id"].is_unique
    assert set(frame["language"]) == {"hindi", "tamil"}
assert not set(train["id"]) & set(test["id"])
for c, a, s in zip(train["context"], train["answer_text"], train["answer_start"]):
    assert c[s:s + len(a)] == a, (c, a, s)
assert train["context"].str.contains("[\u0900-\u097f]").any()
assert train["context"].str.contains("[\u0b80-\u0bff]").any()

def score(truths, preds):
    # Upstream's metric: sample-averaged Jaccard of lower-cased word sets.
    out = []
    for t, p in zip(truths, preds):
        t, p = set(t.lower().split()), set(p.lower().split())
        out.append(len(t & p) / len(t | p) if t | p else 0.0)
    return float(np.mean(out))

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
def answer(context, question):
    words = question.split()[:2]
    tokens = context.split()
    for i in range(len(tokens) - 2):
        if tokens[i:i + 2] == words:
            return tokens[i + 2].rstrip(",.\u0964")
    return ""
model = score(held_out["answer_text"], [answer(c, q) for c, q in zip(held_out["context"], held_out["question"])])
dummy = score(held_out["answer_text"], ["dummy text"] * len(held_out))
print(f"model jaccard={model:.3f} dummy text={dummy:.3f}")
assert model > 0.6 and dummy == 0.0, (model, dummy)
)py";

TEST(ChaiiRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
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
