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

TEST(JigsawUnintendedBiasRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv", "test.csv", "test_private_expanded.csv",
                                 "train.csv"));
  EXPECT_THAT(tree->at("train.csv"), StartsWith("id,target,comment_text,severe_toxicity,"));
  EXPECT_THAT(tree->at("test_private_expanded.csv"), StartsWith("id,comment_text,created_date,"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes (45 columns in the
// labelled files, as upstream asserts); and a bag-of-words logistic
// regression trained on train.csv, scored with upstream's metric on the
// private test set, clearly beats the all-zero sample submission (0.5).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
test = pd.read_csv(raw / "test.csv", float_precision="round_trip")
sample = pd.read_csv(raw / "sample_submission.csv", float_precision="round_trip")
private = pd.read_csv(raw / "test_private_expanded.csv", float_precision="round_trip")
IDENTITIES = ["male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim",
              "black", "white", "psychiatric_or_mental_illness"]
assert train.shape == (3000, 45) and private.shape == (1000, 45)
assert list(test.columns) == ["id", "comment_text"] and len(test) == 200
assert list(sample.columns) == ["id", "prediction"] and list(sample["id"]) == list(test["id"])
assert (sample["prediction"] == 0.0).all()
assert set(train.columns) - {"target"} == set(private.columns) - {"toxicity"}
for frame in (train, private, test):
    assert frame["id"].dtype == np.int64 and frame["id"].is_unique
    assert frame["comment_text"].dtype == object and not frame["comment_text"].isna().any()
assert not set(train["id"]) & set(private["id"]) and not set(test["id"]) & set(private["id"])
assert train["target"].dtype == np.float64 and private["toxicity"].dtype == np.float64
for g in IDENTITIES:
    assert train[g].dtype == np.float64 and private[g].dtype == np.float64
assert train["male"].isna().mean() > 0.5 and private["male"].isna().mean() < 0.2
assert 0.1 < (private["toxicity"] >= 0.5).mean() < 0.4

def score(answers, predictions):
    # Upstream's metric on thresholded labels and predictions.
    y = (answers["toxicity"] >= 0.5).astype(int).to_numpy()
    p = (np.asarray(predictions) >= 0.5).astype(int)
    parts = [[], [], []]
    for g in IDENTITIES:
        member = (answers[g].fillna(0) >= 0.5).to_numpy()
        for k, keep in enumerate([member, member != (y == 1), member == (y == 1)]):
            parts[k].append(roc_auc_score(y[keep], p[keep]))
    means = [(sum(a ** -5 for a in aucs) / len(IDENTITIES)) ** (-1 / 5) for aucs in parts]
    return 0.25 * roc_auc_score(y, p) + sum(0.25 * m for m in means)

vectorizer = CountVectorizer(token_pattern=r"\S+")
x = vectorizer.fit_transform(train["comment_text"])
model = LogisticRegression(max_iter=1000).fit(x, train["target"] >= 0.5)
predicted = model.predict_proba(vectorizer.transform(private["comment_text"]))[:, 1]
ours, baseline = score(private, predicted), score(private, np.zeros(len(private)))
print(f"model score={ours:.3f} sample submission={baseline:.3f}")
assert baseline == 0.5 and ours > 0.8, (ours, baseline)
)py";

TEST(JigsawUnintendedBiasRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
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
