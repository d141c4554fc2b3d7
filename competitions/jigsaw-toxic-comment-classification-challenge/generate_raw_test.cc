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

TEST(JigsawRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv.zip", "test.csv.zip", "test_labels.csv.zip",
                                 "train.csv.zip"));
  EXPECT_LT(total, 2'000'000u);
}

// Each archive holds its one CSV, which pandas reads with Kaggle's columns,
// dtypes and formats; comments exercise CSV quoting; every label has
// positives among the scored test rows; and a bag-of-words logistic
// regression fitted on train.csv clearly beats the sample submission's
// column-wise AUC on the scored test rows (upstream grades exactly those).
constexpr char kCheckScript[] = R"py(
import sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

LABELS = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
raw = Path(sys.argv[1])
def read(stem):
    with zipfile.ZipFile(raw / f"{stem}.csv.zip") as z:
        assert z.testzip() is None
        assert z.namelist() == [f"{stem}.csv"], z.namelist()
        with z.open(f"{stem}.csv") as f:
            head = f.read(200).decode()
        with z.open(f"{stem}.csv") as f:
            return head, pd.read_csv(f, float_precision="round_trip")
train_head, train = read("train")
test_head, test = read("test")
_, labels = read("test_labels")
_, sample = read("sample_submission")
assert train_head.startswith('"id","comment_text","toxic","severe_toxic"'), train_head
assert test_head.startswith('"id","comment_text"\n"'), test_head
assert list(train.columns) == ["id", "comment_text"] + LABELS, list(train.columns)
assert list(test.columns) == ["id", "comment_text"], list(test.columns)
assert list(labels.columns) == ["id"] + LABELS and list(sample.columns) == ["id"] + LABELS
assert len(train) == 2500 and len(test) == len(labels) == len(sample) == 1500
for frame in (train, test, labels, sample):
    assert frame["id"].dtype == object and frame["id"].str.fullmatch(r"[0-9a-f]{16}").all()
    assert frame["id"].is_unique and frame["id"].is_monotonic_increasing
for frame in (train, test):
    assert frame["comment_text"].dtype == object and frame["comment_text"].notna().all()
assert not set(train["id"]) & set(test["id"])
assert list(test["id"]) == list(labels["id"]) == list(sample["id"])
assert (train[LABELS].dtypes == np.int64).all() and train[LABELS].isin([0, 1]).all().all()
assert (labels[LABELS].dtypes == np.int64).all() and (sample[LABELS].dtypes == np.float64).all()
assert sample[LABELS].eq(0.5).all().all()
# Unscored rows are -1 throughout; scored rows 0/1.
scored = labels[LABELS].sum(axis=1) >= 0
assert labels.loc[~scored, LABELS].eq(-1).all().all()
assert labels.loc[scored, LABELS].isin([0, 1]).all().all()
assert 0.35 < scored.mean() < 0.5, scored.mean()
positives = labels.loc[scored, LABELS].sum()
assert (positives >= 8).all(), positives
rates = train[LABELS].mean()
assert 0.15 < rates["toxic"] < 0.25 and (rates > 0.01).all(), rates
# Nested labels, as on Kaggle: the rare ones mostly come with toxic.
assert (train.loc[train["severe_toxic"] == 1, "toxic"] == 1).all()
# Comments exercise CSV quoting and UTF-8.
text = train["comment_text"]
assert text.str.contains(",").mean() > 0.3 and text.str.contains('"').mean() > 0.05
assert text.str.contains("\n").mean() > 0.3 and text.str.contains("[^\x00-\x7f]").any()

vectorizer = TfidfVectorizer(sublinear_tf=True)
x_train = vectorizer.fit_transform(train["comment_text"])
x_test = vectorizer.transform(test.loc[scored.values, "comment_text"])
truth = labels.loc[scored, LABELS].to_numpy()
proba = np.column_stack([
    LogisticRegression(C=4.0, max_iter=1000).fit(x_train, train[label]).predict_proba(x_test)[:, 1]
    for label in LABELS])
auc = roc_auc_score(truth, proba, average="macro")
baseline = roc_auc_score(truth, np.full(truth.shape, 0.5), average="macro")
print(f"logistic regression column-wise AUC={auc:.3f}, sample submission={baseline:.3f}")
assert baseline == 0.5 and 0.85 < auc < 0.995, auc
)py";

TEST(JigsawRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 9}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << "seed " << seed << ": " << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
