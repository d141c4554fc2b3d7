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
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(VentilatorRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_THAT(*tree, ElementsAre(::testing::Key("train.csv")));
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("id,breath_id,R,C,time_step,u_in,u_out,pressure\n1,"));
  EXPECT_LT(tree->at("train.csv").size(), 3'000'000u);
}

// pandas reads Kaggle's columns with upstream's dtypes; a linear model on
// physically motivated features, fitted on the inspiratory rows of 90% of
// the breaths, has a mean
// absolute error over the inspiratory rows of the other breaths far below
// the sample submission's (zeros) and a constant's (the fitted mean).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error

raw = Path(sys.argv[1])
dtypes = {"id": "int32", "breath_id": "int32", "R": "int8", "C": "int8", "time_step": "float64",
          "u_in": "float64", "u_out": "int8", "pressure": "float64"}
df = pd.read_csv(raw / "train.csv", dtype=dtypes)
assert list(df.columns) == list(dtypes), list(df.columns)
assert df["id"].tolist() == list(range(1, len(df) + 1))
assert df["breath_id"].is_monotonic_increasing and df["breath_id"].nunique() == 400
assert set(df["R"]) <= {5, 20, 50} and set(df["C"]) <= {10, 20, 50} and set(df["u_out"]) == {0, 1}
assert df["u_in"].between(0, 100).all()
df["cum"] = df.groupby("breath_id")["u_in"].cumsum()
X = np.column_stack([df["u_in"], df["cum"], df["u_in"] * df["R"], df["cum"] / df["C"], df["u_out"]])
y = df["pressure"].to_numpy()
test = df["breath_id"].isin(df["breath_id"].unique()[::10]).to_numpy()
inspiratory = (df["u_out"] == 0).to_numpy()
scored, fit = test & inspiratory, ~test & inspiratory
model = LinearRegression().fit(X[fit], y[fit])
mae = mean_absolute_error(y[scored], model.predict(X[scored]))
zeros = mean_absolute_error(y[scored], np.zeros(scored.sum()))
const = mean_absolute_error(y[scored], np.full(scored.sum(), y[fit].mean()))
print(f"mae={mae:.3f} zeros={zeros:.3f} const={const:.3f}")
assert mae < 0.3 * const and mae < 0.1 * zeros, (mae, const, zeros)
)py";

TEST(VentilatorRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
