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

TEST(MovieReviewRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sampleSubmission.csv", "test.tsv.zip", "train.tsv.zip"));
  EXPECT_THAT(tree->at("sampleSubmission.csv"), StartsWith("PhraseId,Sentiment\n"));
  EXPECT_LT(total, 500'000u);
}

// pandas reads the archived TSVs (as upstream's prepare does) with Kaggle's
// columns, dtypes and phrase structure, and a bag-of-words logistic
// regression fitted on upstream's train split clearly beats the sample
// submission (all neutral) on the held-out phrases.
constexpr char kCheckScript[] = R"py(
import sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
def read(stem):
    with zipfile.ZipFile(raw / f"{stem}.tsv.zip") as z:
        assert z.testzip() is None
        assert z.namelist() == [f"{stem}.tsv"], z.namelist()
        with z.open(f"{stem}.tsv") as f:
            return pd.read_csv(f, sep="\t")
train, test = read("train"), read("test")
sample = pd.read_csv(raw / "sampleSubmission.csv")
assert list(train.columns) == ["PhraseId", "SentenceId", "Phrase", "Sentiment"], train.columns
assert list(test.columns) == ["PhraseId", "SentenceId", "Phrase"], test.columns
assert list(sample.columns) == ["PhraseId", "Sentiment"], sample.columns
assert 4000 <= len(train) <= 9000 and 1500 <= len(test) <= 4000, (len(train), len(test))
assert list(train.dtypes) == [np.int64, np.int64, object, np.int64], train.dtypes
assert list(test.dtypes) == [np.int64, np.int64, object], test.dtypes
assert list(sample.dtypes) == [np.int64, np.int64] and (sample["Sentiment"] == 2).all()
assert list(sample["PhraseId"]) == list(test["PhraseId"])
for frame in (train, test):
    assert not frame.isna().any().any()
    assert frame["Phrase"].is_unique
    assert not frame["Phrase"].str.contains('[\t"]').any()
    assert (frame["SentenceId"].diff().dropna() >= 0).all()
    # Consecutive ids; each sentence opens with the whole sentence, which
    # holds every later phrase of that sentence.
    assert (frame["PhraseId"].diff().dropna() == 1).all()
    for _, phrases in frame.groupby("SentenceId"):
        whole = phrases["Phrase"].iloc[0]
        assert whole.endswith(" ."), whole
        assert all(p in whole for p in phrases["Phrase"]), whole
# Test ids and sentences continue after train's.
assert train["PhraseId"].iloc[0] == 1 and test["PhraseId"].iloc[0] == train["PhraseId"].iloc[-1] + 1
assert test["SentenceId"].iloc[0] == train["SentenceId"].iloc[-1] + 1
# Penn Treebank tokens and single-token phrases.
assert train["Phrase"].isin([",", ".", "n't", "'s", "``"]).sum() >= 4
assert set(train["Sentiment"]) == {0, 1, 2, 3, 4}
shares = train["Sentiment"].value_counts(normalize=True)
assert 0.4 < shares[2] < 0.6 and shares.idxmax() == 2, shares
assert shares[0] < shares[1] and shares[4] < shares[3], shares

fit, held_out = train_test_split(train, test_size=0.3, random_state=0)
vectorizer = CountVectorizer(token_pattern=r"\S+", ngram_range=(1, 2))
model = LogisticRegression(max_iter=2000).fit(vectorizer.fit_transform(fit["Phrase"]), fit["Sentiment"])
accuracy = (model.predict(vectorizer.transform(held_out["Phrase"])) == held_out["Sentiment"]).mean()
baseline = (held_out["Sentiment"] == 2).mean()
print(f"accuracy={accuracy:.3f} sample submission={baseline:.3f}")
assert accuracy > 0.65 and accuracy > baseline + 0.15, (accuracy, baseline)
)py";

TEST(MovieReviewRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::printf("seed %llu: %s", static_cast<unsigned long long>(seed), result.output.c_str());
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
