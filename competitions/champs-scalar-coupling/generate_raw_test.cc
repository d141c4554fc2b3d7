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

TEST(ChampsRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, xyz = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    xyz += name.starts_with("structures/") && name.ends_with(".xyz");
  }
  EXPECT_EQ(xyz, 150u);
  EXPECT_EQ(tree->size(), 157u);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("id,molecule_name,atom_index_0,atom_index_1,type,"
                         "scalar_coupling_constant\n0,dsgdb9nsd_"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads Kaggle's files with the expected columns and dtypes; every
// molecule has its .xyz file and rows in every per-molecule CSV; a per-type
// linear fit on the atoms' distance, fitted on 90% of the molecules, scores
// far better (log MAE by type, lower is better) than the sample submission's
// zeros and than per-type means.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error

raw = Path(sys.argv[1])
read = lambda name: pd.read_csv(raw / f"{name}.csv")
train = read("train")
assert list(train.columns) == ["id", "molecule_name", "atom_index_0", "atom_index_1", "type",
                               "scalar_coupling_constant"], list(train.columns)
assert list(train.dtypes) == [np.int64, object, np.int64, np.int64, object, np.float64]
assert train["id"].tolist() == list(range(len(train)))
assert train["molecule_name"].str.fullmatch(r"dsgdb9nsd_\d{6}").all()
assert set(train["type"]) == {"1JHC", "1JHN", "2JHH", "2JHC", "2JHN", "3JHH", "3JHC", "3JHN"}
columns = {
    "structures": ["molecule_name", "atom_index", "atom", "x", "y", "z"],
    "dipole_moments": ["molecule_name", "X", "Y", "Z"],
    "magnetic_shielding_tensors": ["molecule_name", "atom_index", "XX", "YX", "ZX", "XY", "YY",
                                   "ZY", "XZ", "YZ", "ZZ"],
    "mulliken_charges": ["molecule_name", "atom_index", "mulliken_charge"],
    "potential_energy": ["molecule_name", "potential_energy"],
    "scalar_coupling_contributions": ["molecule_name", "atom_index_0", "atom_index_1", "type",
                                      "fc", "sd", "pso", "dso"],
}
for name, cols in columns.items():
    df = read(name)
    assert list(df.columns) == cols, (name, list(df.columns))
    assert set(train["molecule_name"]) <= set(df["molecule_name"]), name
structures = read("structures")
names = sorted(structures["molecule_name"].unique())
assert sorted(p.stem for p in (raw / "structures").iterdir()) == names
first = (raw / "structures" / f"{names[0]}.xyz").read_text().split("\n")
assert int(first[0]) == (structures["molecule_name"] == names[0]).sum()

xyz = structures.set_index(["molecule_name", "atom_index"])[["x", "y", "z"]]
a = xyz.loc[list(zip(train["molecule_name"], train["atom_index_0"]))].to_numpy()
b = xyz.loc[list(zip(train["molecule_name"], train["atom_index_1"]))].to_numpy()
train["d"] = np.minimum(np.linalg.norm(a - b, axis=1), 4.0)
molecules = train["molecule_name"].unique()
held = train["molecule_name"].isin(molecules[::10])
fit, val = train[~held], train[held].copy()
val["fit"] = 0.0
val["mean"] = 0.0
for t, g in fit.groupby("type"):
    slope, intercept = np.polyfit(g["d"], g["scalar_coupling_constant"], 1)
    val.loc[val["type"] == t, "fit"] = intercept + slope * val.loc[val["type"] == t, "d"]
    val.loc[val["type"] == t, "mean"] = g["scalar_coupling_constant"].mean()
score = lambda col: np.mean([np.log(mean_absolute_error(g["scalar_coupling_constant"], g[col]))
                             for _, g in val.assign(zero=0.0).groupby("type")])
model, mean, zero = score("fit"), score("mean"), score("zero")
print(f"model={model:.3f} mean={mean:.3f} zero={zero:.3f}")
assert model < mean - 0.4 and model < zero - 1.0, (model, mean, zero)
)py";

TEST(ChampsRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
