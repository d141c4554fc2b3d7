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

TEST(LmsysChatbotArenaRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
              StartsWith("id,model_a,model_b,prompt,response_a,response_b,winner_model_a,"
                         "winner_model_b,winner_tie\n"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes, and a logistic
// regression on the models and the responses' lengths, fitted on upstream's
// train split, clearly beats the uniform sample submission on held-out rows.
constexpr char kCheckScript[] = R"py(
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
test = pd.read_csv(raw / "test.csv", float_precision="round_trip")
sample = pd.read_csv(raw / "sample_submission.csv", float_precision="round_trip")
classes = ["winner_model_a", "winner_model_b", "winner_tie"]
assert list(train.columns) == ["id", "model_a", "model_b", "prompt", "response_a", "response_b"] + classes
assert list(test.columns) == ["id", "prompt", "response_a", "response_b"]
assert list(sample.columns) == ["id"] + classes
assert len(train) == 2500 and len(test) == 3 == len(sample)
assert train["id"].dtype == np.int64 and test["id"].dtype == np.int64
assert train["id"].is_unique and not train["id"].is_monotonic_increasing
assert not set(train["id"]) & set(test["id"])
assert (train[classes].dtypes == np.int64).all()
assert (train[classes].sum(axis=1) == 1).all()
assert train[classes].mean().min() > 0.15, train[classes].mean()
assert (sample[classes].dtypes == np.float64).all()
for column in ["prompt", "response_a", "response_b"]:
    for frame in (train, test):
        assert frame[column].dtype == object
        parsed = frame[column].map(json.loads)
        assert parsed.map(lambda x: isinstance(x, list) and len(x) >= 1).all()
assert train["response_a"].str.contains(",").mean() > 0.3
assert train["response_a"].str.contains('\\"', regex=False).mean() > 0.3

def features(frame):
    length = lambda col: frame[col].map(lambda s: sum(len(t.split()) for t in json.loads(s)))
    ratio = np.log(length("response_a") / length("response_b")).to_numpy()[:, None]
    models = sorted(set(train["model_a"]) | set(train["model_b"]))
    a = (frame["model_a"].to_numpy()[:, None] == np.array(models)[None, :]).astype(float)
    b = (frame["model_b"].to_numpy()[:, None] == np.array(models)[None, :]).astype(float)
    return np.hstack([ratio, np.abs(ratio), a - b])

fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
labels = lambda frame: frame[classes].to_numpy().argmax(axis=1)
model = LogisticRegression(max_iter=1000).fit(features(fit), labels(fit))
loss = log_loss(labels(held_out), model.predict_proba(features(held_out)), labels=[0, 1, 2])
baseline = log_loss(labels(held_out), np.full((len(held_out), 3), 1 / 3), labels=[0, 1, 2])
print(f"logistic regression log loss={loss:.3f} uniform={baseline:.3f}")
assert loss < baseline - 0.1, (loss, baseline)
)py";

TEST(LmsysChatbotArenaRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 9}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
