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
constexpr char kFeatureHeader[] =
    "id,f_00,f_01,f_02,f_03,f_04,f_05,f_06,f_07,f_08,f_09,f_10,f_11,f_12,f_13,f_14,f_15,f_16,"
    "f_17,f_18,f_19,f_20,f_21,f_22,f_23,f_24,f_25,f_26,f_27,f_28,f_29,f_30";

TEST(TabularPlaygroundMay2022RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_THAT(tree->at("train.csv"), StartsWith(std::string(kFeatureHeader) + ",target\n0,"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith(std::string(kFeatureHeader) + "\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,target\n"));
  // More than 100,000 train rows are unavoidable (see generate_raw.cc).
  EXPECT_LT(total, 20'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes, upstream's split
// leaves a train set, the values look like Kaggle's, and models learn the
// target: a linear one on the raw columns, a better one given the
// interactions.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
test = pd.read_csv(f"{raw}/test.csv", float_precision="round_trip")
sample = pd.read_csv(f"{raw}/sample_submission.csv")

features = ["id"] + [f"f_{i:02d}" for i in range(31)]
assert list(train.columns) == features + ["target"], list(train.columns)
assert list(test.columns) == features, list(test.columns)
assert list(sample.columns) == ["id", "target"], list(sample.columns)
# Upstream's prepare.py holds out 100,000 rows and needs some left to train on.
assert 103_950 <= len(train) < 104_050 and 1_950 <= len(test) < 2_050, (len(train), len(test))

floats = [f"f_{i:02d}" for i in [*range(7), *range(19, 27), 28]]
ints = ["id"] + [f"f_{i:02d}" for i in [*range(7, 19), 29, 30]]
for frame in (train, test):
    for col in floats:
        assert frame[col].dtype == np.float64, (col, frame[col].dtype)
    for col in ints:
        assert frame[col].dtype == np.int64, (col, frame[col].dtype)
    assert frame["f_27"].dtype == object
    assert not frame.isna().any().any()
assert train["target"].dtype == np.int64 and set(train["target"]) == {0, 1}
assert sample["target"].dtype == np.float64 and (sample["target"] == 0.5).all()

# Ids number train rows from 0 and test rows after them.
assert (train["id"] == np.arange(len(train))).all()
assert (test["id"] == np.arange(len(train), len(train) + len(test))).all()
assert (sample["id"] == test["id"]).all()

both = pd.concat([train, test])
assert both["f_27"].str.fullmatch(r"[A-T]{10}").all()
for pos in (0, 2, 5):
    assert set(both["f_27"].str[pos]) == {"A", "B"}
assert both["f_27"].str[3].nunique() > 6
counts = both[[f"f_{i:02d}" for i in range(7, 19)]]
assert (counts >= 0).all().all() and 1.5 < counts.values.mean() < 2.6
assert set(both["f_29"]) == {0, 1} and set(both["f_30"]) == {0, 1, 2}
assert abs(both["f_00"].mean()) < 0.05 and 0.95 < both["f_00"].std() < 1.05
assert 150 < both["f_28"].std() < 350
rate = train["target"].mean()
assert 0.4 <= rate <= 0.6, rate

# Split as upstream's prepare does: about 4,000 rows to fit, 100,000 to score.
fit, held_out = train_test_split(train, test_size=100_000, random_state=0)
numeric = floats + ints[1:]
def engineered(f):
    out = f[numeric].copy()
    ternary = lambda s, t: (s > t).astype(int) - (s < -t).astype(int)
    out["i_02_21"] = ternary(f["f_02"] + f["f_21"], 2.5)
    out["i_05_22"] = ternary(f["f_05"] + f["f_22"], 2.5)
    out["i_00_01_26"] = ternary(f["f_00"] + f["f_01"] + f["f_26"], 2.7)
    out["letters"] = f["f_27"].apply(lambda s: len(set(s)))
    return out
def auc(make):
    model = LogisticRegression(max_iter=2000).fit(make(fit), fit["target"])
    return roc_auc_score(held_out["target"], model.predict_proba(make(held_out))[:, 1])
linear = auc(lambda f: f[numeric])
rich = auc(engineered)
baseline = roc_auc_score(held_out["target"], np.full(len(held_out), 0.5))  # the sample submission
print(f"linear={linear:.3f} engineered={rich:.3f} baseline={baseline:.3f}")
assert baseline == 0.5
assert linear > 0.7, linear
assert rich > linear + 0.03, (rich, linear)
)py";

TEST(TabularPlaygroundMay2022RawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
