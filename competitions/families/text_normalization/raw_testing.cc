#include "competitions/families/text_normalization/raw_testing.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

TEST_P(TextNormalizationRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      DeterministicSyntheticTree(GetParam().competition_id);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  const std::string& p = GetParam().prefix;
  EXPECT_THAT(names, ElementsAre(p + "_sample_submission_2.csv.zip", p + "_test_2.csv.zip",
                                 p + "_train.csv.zip"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the archives (as upstream does after extracting them) with
// Kaggle's columns and dtypes, and a model that memorises each token's most
// frequent normalisation on upstream's train split beats the sample
// submission's idea (after = before) on the held-out sentences.
constexpr char kCheckScript[] = R"py(
import sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, p, letters = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
def read(name):
    with zipfile.ZipFile(raw / f"{name}.zip") as z:
        assert z.testzip() is None
        assert z.namelist() == [name], z.namelist()
        with z.open(name) as f:
            text = f.read().decode("utf-8")
    assert text.startswith('"'), text[:20]
    with zipfile.ZipFile(raw / f"{name}.zip") as z, z.open(name) as f:
        return pd.read_csv(f, float_precision="round_trip")
train = read(f"{p}_train.csv")
test = read(f"{p}_test_2.csv")
sample = read(f"{p}_sample_submission_2.csv")
assert list(train.columns) == ["sentence_id", "token_id", "class", "before", "after"]
assert list(test.columns) == ["sentence_id", "token_id", "before"]
assert list(sample.columns) == ["id", "after"]
for frame in (train, test):
    assert frame["sentence_id"].dtype == np.int64 and frame["token_id"].dtype == np.int64
    assert not frame.isna().any().any()
    assert (frame.groupby("sentence_id")["token_id"].apply(lambda t: list(t) == list(range(len(t))))).all()
    assert list(frame["sentence_id"].unique()) == list(range(frame["sentence_id"].nunique()))
assert (train[["class", "before", "after"]].dtypes == object).all()
assert set(train["class"]) == {"PLAIN", "PUNCT", "CARDINAL", "LETTERS"}
assert list(sample["id"]) == list(test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str))
assert list(sample["after"]) == list(test["before"])
assert train["before"].str.contains(letters).mean() > 0.5
assert train["before"].str.contains('"', regex=False).any()
assert (train["before"] != train["after"]).mean() > 0.1

ids = train["sentence_id"].unique()
fit_ids, held_ids = train_test_split(ids, test_size=0.1, random_state=0)
fit = train[train["sentence_id"].isin(fit_ids)]
held = train[train["sentence_id"].isin(held_ids)]
memory = fit.groupby("before")["after"].agg(lambda s: s.value_counts().index[0])
predicted = held["before"].map(memory).fillna(held["before"])
model = (predicted == held["after"]).mean()
baseline = (held["before"] == held["after"]).mean()
print(f"memorising model accuracy={model:.3f} sample submission={baseline:.3f}")
assert model > 0.95 and model > baseline + 0.1, (model, baseline)
)py";

TEST_P(TextNormalizationRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = GenerateSynthetic(GetParam().competition_id, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    CommandResult result = RunPython(
        kCheckScript, {raw->string(), GetParam().prefix, GetParam().letter_pattern});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::testing
