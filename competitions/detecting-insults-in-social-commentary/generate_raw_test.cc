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

TEST(DetectingInsultsRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("test_with_solutions.csv", "train.csv"));
  EXPECT_THAT(tree->at("train.csv"), StartsWith("Insult,Date,Comment\n"));
  EXPECT_THAT(tree->at("test_with_solutions.csv"), StartsWith("Insult,Date,Comment,Usage\n"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads both files with Kaggle's columns and dtypes; the comments look
// like Kaggle's (quoted, escapes as text, unique, none shared between the
// files); and a TF-IDF logistic regression fitted on train.csv ranks the
// labelled test comments far better than the sample submission's constant.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
test = pd.read_csv(raw / "test_with_solutions.csv", float_precision="round_trip")
assert list(train.columns) == ["Insult", "Date", "Comment"], list(train.columns)
assert list(test.columns) == ["Insult", "Date", "Comment", "Usage"], list(test.columns)
assert len(train) == 1500 and len(test) == 1000
for frame in (train, test):
    assert frame["Insult"].dtype == np.int64 and set(frame["Insult"]) == {0, 1}
    assert 0.15 < frame["Insult"].mean() < 0.4, frame["Insult"].mean()
    assert frame["Date"].dtype == object
    assert 0.1 < frame["Date"].isna().mean() < 0.3
    assert frame["Date"].dropna().str.fullmatch(r"2012\d{10}Z").all()
    assert frame["Comment"].dtype == object and frame["Comment"].notna().all()
    assert frame["Comment"].str.fullmatch(r'".*"', flags=0).all()
    assert frame["Comment"].is_unique
    assert frame["Comment"].str.contains(r"\\n", regex=False).any()
    assert frame["Comment"].str.contains(r"\xa0", regex=False).any()
assert set(test["Usage"]) == {"PublicTest", "PrivateTest"}
assert set(train["Comment"]).isdisjoint(set(test["Comment"]))

vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
model = LogisticRegression(C=10.0, max_iter=1000)
model.fit(vectorizer.fit_transform(train["Comment"]), train["Insult"])
scores = model.predict_proba(vectorizer.transform(test["Comment"]))[:, 1]
auc = roc_auc_score(test["Insult"], scores)
baseline = roc_auc_score(test["Insult"], np.zeros(len(test)))
print(f"logistic regression AUC={auc:.3f} sample submission={baseline:.3f}")
assert auc > 0.85 and baseline == 0.5, (auc, baseline)
)py";

TEST(DetectingInsultsRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
