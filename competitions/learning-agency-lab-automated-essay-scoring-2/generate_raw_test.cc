#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(EssayScoringRawTest, DeterministicSmallKaggleFiles) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"sample_submission.csv", "test.csv", "train.csv"}));
  EXPECT_LT(total, 4'000'000u);
  EXPECT_EQ(tree->at("train.csv").substr(0, 25), "essay_id,full_text,score\n");
}

// pandas reads the files with Kaggle's columns and dtypes, and a linear model
// on length and word features, fitted on upstream's train split, scores a
// clearly better quadratic weighted kappa on the held-out essays than
// upstream's sample submission (random scores from RandomState(42)).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
read = lambda name: pd.read_csv(raw / name, float_precision="round_trip")
train, test, sample = read("train.csv"), read("test.csv"), read("sample_submission.csv")
assert list(train.columns) == ["essay_id", "full_text", "score"], train.columns
assert list(test.columns) == ["essay_id", "full_text"], test.columns
assert list(sample.columns) == ["essay_id", "score"], sample.columns
assert len(train) == 1500 and len(test) == 3 == len(sample)
assert train["score"].dtype == np.int64 and set(train["score"]) <= set(range(1, 7))
assert train["score"].nunique() >= 5
assert sample["score"].dtype == np.int64 and list(sample["essay_id"]) == list(test["essay_id"])
for frame in (train, test):
    assert (frame[["essay_id", "full_text"]].dtypes == object).all()
    assert not frame.isna().any().any()
    assert frame["essay_id"].str.fullmatch(r"[0-9a-f]{7}").all() and frame["essay_id"].is_unique
assert train["full_text"].str.contains("\n\n").mean() > 0.5
assert train["full_text"].str.contains(",").mean() > 0.5
assert train["full_text"].str.contains('"').any()
assert not set(train["essay_id"]) & set(test["essay_id"])

advanced = ["consequently", "furthermore", "significant", "perspective", "evidence"]
def features(frame):
    words = frame["full_text"].str.split()
    return np.column_stack([
        np.log(words.str.len()),
        frame["full_text"].str.count("\n\n"),
        frame["full_text"].str.count("|".join(advanced)) / words.str.len(),
    ])

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
model = LinearRegression().fit(features(fit), fit["score"])
predicted = np.clip(np.rint(model.predict(features(held_out))), 1, 6).astype(int)
kappa = cohen_kappa_score(predicted, held_out["score"], weights="quadratic")
baseline = cohen_kappa_score(np.random.RandomState(42).randint(1, 7, size=len(held_out)),
                             held_out["score"], weights="quadratic")
print(f"linear model kappa={kappa:.3f} sample submission={baseline:.3f}")
assert kappa > 0.6 and kappa > baseline + 0.4, (kappa, baseline)
)py";

TEST(EssayScoringRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<std::filesystem::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
