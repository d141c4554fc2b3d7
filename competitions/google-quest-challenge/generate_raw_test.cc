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

TEST(GoogleQuestRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(tree->size(), 3u);
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  EXPECT_THAT(tree->at("train.csv"), StartsWith("qa_id,question_title,question_body,"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith("qa_id,question_title,question_body,"));
  EXPECT_THAT(tree->at("sample_submission.csv"),
              StartsWith("qa_id,question_asker_intent_understanding,"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's 41 / 11 / 31 columns with their dtypes; targets are
// rater averages in [0, 1]; question_type_spelling is rarely above 0; and a
// TF-IDF ridge regression fitted on 3/4 of the train rows reaches a clearly
// positive mean column-wise Spearman correlation on the rest (the sample
// submission's constant columns have none).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from scipy.sparse import hstack

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
test = pd.read_csv(raw / "test.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
text_cols = ["question_title", "question_body", "question_user_name", "question_user_page",
             "answer", "answer_user_name", "answer_user_page", "url", "category", "host"]
targets = list(train.columns[11:])
assert list(train.columns[:11]) == ["qa_id"] + text_cols, list(train.columns)
assert len(targets) == 30 and targets[19] == "question_type_spelling", targets
assert list(test.columns) == ["qa_id"] + text_cols
assert list(sample.columns) == ["qa_id"] + targets
assert train["qa_id"].dtype == np.int64 and all(train[c].dtype == object for c in text_cols)
assert all(train[t].dtype == np.float64 for t in targets)
assert train[targets].min().min() >= 0 and train[targets].max().max() <= 1
assert len(train) == 600 and len(test) == 60 and list(sample["qa_id"]) == list(test["qa_id"])
assert train["qa_id"].is_unique and not set(train["qa_id"]) & set(test["qa_id"])
assert 1 <= (train["question_type_spelling"] != 0).sum() <= 40
assert train[text_cols].notna().all().all()

def text(df):
    return (df["question_title"] + " " + df["question_body"] + " " + df["answer"] + " " +
            df["category"])

fit, val = train_test_split(train, test_size=0.25, random_state=0)
vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2).fit(text(fit))
def features(df):
    lengths = np.c_[df["question_body"].str.len(), df["answer"].str.len()] / 500.0
    return hstack([vectorizer.transform(text(df)), lengths]).tocsr()
model = Ridge(alpha=1.0).fit(features(fit), fit[targets])
pred = model.predict(features(val))
rhos = [spearmanr(pred[:, i], val[t]).correlation for i, t in enumerate(targets)]
score = np.nanmean(rhos)
print(f"mean spearman={score:.3f}")
assert score > 0.35, rhos
)py";

TEST(GoogleQuestRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
