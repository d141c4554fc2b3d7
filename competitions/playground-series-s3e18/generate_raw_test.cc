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

TEST(PlaygroundS3e18RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_THAT(tree->at("train.csv"), StartsWith("id,BertzCT,Chi1,Chi1n,Chi1v,"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,EC1,EC2\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes; labels have
// Kaggle's rough rates; and a logistic regression on the descriptors,
// fitted on upstream's train split, clearly beats the sample submission's
// mean AUC over EC1 and EC2 on the held-out rows.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

FEATURES = ["BertzCT", "Chi1", "Chi1n", "Chi1v", "Chi2n", "Chi2v", "Chi3v", "Chi4n",
            "EState_VSA1", "EState_VSA2", "ExactMolWt", "FpDensityMorgan1", "FpDensityMorgan2",
            "FpDensityMorgan3", "HallKierAlpha", "HeavyAtomMolWt", "Kappa3", "MaxAbsEStateIndex",
            "MinEStateIndex", "NumHeteroatoms", "PEOE_VSA10", "PEOE_VSA14", "PEOE_VSA6",
            "PEOE_VSA7", "PEOE_VSA8", "SMR_VSA10", "SMR_VSA5", "SlogP_VSA3", "VSA_EState9",
            "fr_COO", "fr_COO2"]
LABELS = ["EC1", "EC2", "EC3", "EC4", "EC5", "EC6"]
COUNTS = ["NumHeteroatoms", "fr_COO", "fr_COO2"]
raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
test = pd.read_csv(f"{raw}/test.csv", float_precision="round_trip")
sample = pd.read_csv(f"{raw}/sample_submission.csv", float_precision="round_trip")
n_train, n_test = len(train), len(test)
assert list(train.columns) == ["id"] + FEATURES + LABELS and 2900 <= n_train <= 3100
assert list(test.columns) == ["id"] + FEATURES and 950 <= n_test <= 1050
assert list(sample.columns) == ["id", "EC1", "EC2"] and len(sample) == n_test
assert list(train["id"]) == list(range(n_train))
assert list(test["id"]) == list(range(n_train, n_train + n_test))
assert list(sample["id"]) == list(test["id"]) and sample[["EC1", "EC2"]].eq(0.5).all().all()
for frame in (train, test):
    assert not frame.isna().any().any()
    assert frame["id"].dtype == np.int64 and (frame[COUNTS].dtypes == np.int64).all()
    floats = [f for f in FEATURES if f not in COUNTS]
    assert (frame[floats].dtypes == np.float64).all(), frame.dtypes
    assert (frame[floats].round(6) == frame[floats]).all().all()
assert (train[LABELS].dtypes == np.int64).all() and train[LABELS].isin([0, 1]).all().all()
rates = train[LABELS].mean()
assert 0.55 < rates["EC1"] < 0.8 and 0.7 < rates["EC2"] < 0.9 and (rates > 0.05).all(), rates

# Split as upstream's prepare does, fit, and score as its grader does.
fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
proba = np.column_stack([
    model.fit(fit[FEATURES], fit[label]).predict_proba(held_out[FEATURES])[:, 1]
    for label in ["EC1", "EC2"]])
truth = held_out[["EC1", "EC2"]].to_numpy()
auc = roc_auc_score(truth, proba, average="macro")
baseline = roc_auc_score(truth, np.full(truth.shape, 0.5), average="macro")
print(f"logistic regression mean AUC={auc:.3f}, sample submission={baseline:.3f}")
assert baseline == 0.5 and 0.75 < auc < 0.95, auc
)py";

TEST(PlaygroundS3e18RawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
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
