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

TEST(StanfordCovidRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  ASSERT_EQ(tree->size(), 3u);
  EXPECT_THAT(tree->at("train.json"), StartsWith("{\"index\":0,\"id\":\"id_"));
  EXPECT_THAT(tree->at("sample_submission.csv"),
              StartsWith("id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C\n"));
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) total += bytes.size();
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's keys and dtypes; the targets follow the structure:
// predicting each position's reactivity from (paired, base) means learned on
// 90% of the sequences beats the all-zero sample submission by far.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
train = pd.read_json(raw / "train.json", lines=True)
test = pd.read_json(raw / "test.json", lines=True)
sample = pd.read_csv(raw / "sample_submission.csv")
targets = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
errors = ["reactivity_error", "deg_error_Mg_pH10", "deg_error_pH10", "deg_error_Mg_50C", "deg_error_50C"]
assert list(train.columns) == ["index", "id", "sequence", "structure", "predicted_loop_type",
    "signal_to_noise", "SN_filter", "seq_length", "seq_scored"] + errors + targets, list(train.columns)
assert list(test.columns) == ["index", "id", "sequence", "structure", "predicted_loop_type",
    "seq_length", "seq_scored"], list(test.columns)
assert train["SN_filter"].dtype == np.int64 and train["signal_to_noise"].dtype == np.float64
assert train["id"].str.fullmatch(r"id_[0-9a-f]{9}").all() and train["id"].is_unique
assert (train["sequence"].str.len() == train["seq_length"]).all()
assert all(len(v) == n for col in targets for v, n in zip(train[col], train["seq_scored"]))
assert list(sample.columns) == ["id_seqpos"] + targets and len(sample) == (test["seq_length"]).sum()

def positions(df):
    rows = []
    for _, r in df.iterrows():
        for j in range(r["seq_scored"]):
            rows.append((r["structure"][j] == ".", r["sequence"][j], r["reactivity"][j]))
    return pd.DataFrame(rows, columns=["unpaired", "base", "y"])

fit, val = train.iloc[: int(len(train) * 0.9)], train.iloc[int(len(train) * 0.9):]
p_fit, p_val = positions(fit), positions(val)
means = p_fit.groupby(["unpaired", "base"])["y"].mean()
pred = np.array([means[(u, b)] for u, b in zip(p_val["unpaired"], p_val["base"])])
rmse = np.sqrt(np.mean((pred - p_val["y"]) ** 2))
zero = np.sqrt(np.mean(p_val["y"] ** 2))
print(f"rmse={rmse:.3f} zero={zero:.3f}")
assert rmse < 0.4 * zero, (rmse, zero)
)py";

TEST(StanfordCovidRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
