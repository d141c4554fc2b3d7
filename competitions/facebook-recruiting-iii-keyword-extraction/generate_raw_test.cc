#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(FacebookKeywordRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  ASSERT_EQ(tree->size(), 1u);
  EXPECT_TRUE(tree->contains("Train.zip"));
  EXPECT_LT(tree->at("Train.zip").size(), 2'000'000u);
}

// Python's zipfile holds exactly Train.csv; pandas reads Kaggle's columns
// (Id int64, the rest text; upstream reads Id and Tags as str); ids are
// 1..n; bodies hold commas, quotes and newlines; a TF-IDF + one-vs-rest
// logistic regression, fitted on 90% of the questions, scores a micro F1
// far above the sample submission's tags on the rest.
constexpr char kCheckScript[] = R"py(
import sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import MultiLabelBinarizer

raw = Path(sys.argv[1])
with zipfile.ZipFile(raw / "Train.zip") as z:
    assert z.namelist() == ["Train.csv"], z.namelist()
    with z.open("Train.csv") as f:
        train = pd.read_csv(f)
assert list(train.columns) == ["Id", "Title", "Body", "Tags"], list(train.columns)
assert list(train.dtypes) == [np.int64, object, object, object], train.dtypes
assert (train["Id"] == np.arange(1, len(train) + 1)).all()
assert train["Body"].str.contains("\n").all() and train["Body"].str.contains(",").all()
assert train["Tags"].notna().all()
tags = train["Tags"].str.split()
text = train["Title"] + " " + train["Body"]
mlb = MultiLabelBinarizer()
Y = mlb.fit_transform(tags)
X_fit, X_val, Y_fit, Y_val = train_test_split(text, Y, test_size=0.1, random_state=0)
vec = TfidfVectorizer(token_pattern=r"\S+").fit(X_fit)
model = OneVsRestClassifier(LogisticRegression(C=10, max_iter=1000)).fit(vec.transform(X_fit), Y_fit)
pred = model.predict(vec.transform(X_val))
f1 = f1_score(Y_val, pred, average="micro")
sample = f1_score(Y_val, mlb.transform([["javascript", "c#", "python", "php", "java"]] * len(Y_val)),
                  average="micro")
print(f"f1={f1:.3f} sample={sample:.3f}")
assert f1 > 0.6 and f1 > sample + 0.25, (f1, sample)
)py";

TEST(FacebookKeywordRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
