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

TEST(OsicRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, slices = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.ends_with(".dcm")) {
      ++slices;
      ASSERT_GT(bytes.size(), 132u);
      EXPECT_EQ(bytes.substr(128, 4), "DICM") << name;
    }
  }
  EXPECT_GE(slices, 160u);
  EXPECT_EQ(tree->size(), slices + 1);
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus\nID"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every patient has a directory of
// slices; predicting each held-out patient's later FVCs from their first
// visit and a decline rate fitted on the other patients scores a far higher
// Laplace log likelihood on their three latest visits than the sample
// submission (FVC 2000, Confidence 100).
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"]
assert list(train.dtypes) == [object, np.int64, np.int64, np.float64, np.int64, object, object], train.dtypes
assert train["Patient"].str.fullmatch(r"ID\d{23}").all()
assert not train.duplicated(["Patient", "Weeks"]).any()
assert set(train["Sex"]) == {"Male", "Female"}
assert set(train["SmokingStatus"]) <= {"Ex-smoker", "Never smoked", "Currently smokes"}
patients = train["Patient"].unique()
assert sorted(p.name for p in (raw / "train").iterdir()) == sorted(patients)
assert all(any((raw / "train" / p).glob("*.dcm")) for p in patients)

def score(actual, predicted, confidence):
    sd = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(actual - predicted), 1000)
    return np.mean(-np.sqrt(2) * delta / sd - np.log(np.sqrt(2) * sd))

held = set(patients[::8])
rates = []
for p, g in train[~train["Patient"].isin(held)].groupby("Patient"):
    rates.append(np.polyfit(g["Weeks"], g["FVC"], 1)[0])
rate = np.mean(rates)
actual, predicted = [], []
for p, g in train[train["Patient"].isin(held)].groupby("Patient"):
    g = g.sort_values("Weeks")
    first = g.iloc[0]
    last3 = g.tail(3)
    actual += list(last3["FVC"])
    predicted += list(first["FVC"] + rate * (last3["Weeks"] - first["Weeks"]))
actual, predicted = np.array(actual, float), np.array(predicted)
model = score(actual, predicted, np.full(len(actual), 150.0))
sample = score(actual, np.full(len(actual), 2000.0), np.full(len(actual), 100.0))
print(f"model={model:.3f} sample={sample:.3f}")
assert model > sample + 2.0, (model, sample)
)py";

TEST(OsicRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
