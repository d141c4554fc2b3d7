#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(UsPatentRawTest, DeterministicSmallKaggleFiles) {
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
  EXPECT_LT(total, 1'000'000u);
  EXPECT_EQ(tree->at("train.csv").substr(0, 31), "id,anchor,target,context,score\n");
}

// pandas reads the files with Kaggle's columns and dtypes, and a linear model
// on word overlap, fitted on upstream's train split, correlates clearly with
// the held-out scores (the sample submission's constant 0 has no correlation
// at all: pearsonr calls it undefined).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from scipy.stats import pearsonr
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
read = lambda name: pd.read_csv(raw / name, float_precision="round_trip")
train, test, sample = read("train.csv"), read("test.csv"), read("sample_submission.csv")
assert list(train.columns) == ["id", "anchor", "target", "context", "score"], train.columns
assert list(test.columns) == ["id", "anchor", "target", "context"], test.columns
assert list(sample.columns) == ["id", "score"], sample.columns
assert len(train) == 3000 and len(test) == 36 == len(sample)
assert train["score"].dtype == np.float64 and sample["score"].dtype == np.int64
assert set(train["score"]) == {0.0, 0.25, 0.5, 0.75, 1.0}
assert (sample["score"] == 0).all() and list(sample["id"]) == list(test["id"])
for frame in (train, test):
    assert (frame[["id", "anchor", "target", "context"]].dtypes == object).all()
    assert not frame.isna().any().any()
    assert frame["id"].str.fullmatch(r"[0-9a-f]{16}").all() and frame["id"].is_unique
    assert frame["context"].str.fullmatch(r"[A-H]\d\d").all()
assert not set(train["id"]) & set(test["id"])
assert train.groupby("anchor").size().mean() > 2

def features(frame):
    rows = []
    for anchor, target in zip(frame["anchor"], frame["target"]):
        a, t = set(anchor.split()), set(target.split())
        rows.append([len(a & t) / len(a | t), len(a & t) / len(a), float(anchor == target)])
    return np.array(rows)

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
model = LinearRegression().fit(features(fit), fit["score"])
r = pearsonr(held_out["score"], model.predict(features(held_out)))[0]
print(f"overlap model pearson={r:.3f}")
assert r > 0.6, r
)py";

TEST(UsPatentRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<std::filesystem::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
