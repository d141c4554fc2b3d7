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

TEST(TabularPlaygroundDec2021RawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_THAT(tree->at("train.csv"), StartsWith("Id,Elevation,Aspect,Slope,"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith("Id,Elevation,Aspect,Slope,"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("Id,Cover_Type\n"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes, the values look
// like Kaggle's, and a small decision tree learns the class.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv")
test = pd.read_csv(f"{raw}/test.csv")
sample = pd.read_csv(f"{raw}/sample_submission.csv")

wilderness = [f"Wilderness_Area{i}" for i in range(1, 5)]
soils = [f"Soil_Type{i}" for i in range(1, 41)]
features = ["Id", "Elevation", "Aspect", "Slope", "Horizontal_Distance_To_Hydrology",
            "Vertical_Distance_To_Hydrology", "Horizontal_Distance_To_Roadways", "Hillshade_9am",
            "Hillshade_Noon", "Hillshade_3pm", "Horizontal_Distance_To_Fire_Points"
           ] + wilderness + soils
assert list(train.columns) == features + ["Cover_Type"], list(train.columns)
assert list(test.columns) == features, list(test.columns)
assert list(sample.columns) == ["Id", "Cover_Type"], list(sample.columns)
assert 2950 <= len(train) < 3050 and 950 <= len(test) < 1050 and len(sample) == len(test)
for frame in (train, test, sample):
    assert (frame.dtypes == np.int64).all(), frame.dtypes[frame.dtypes != np.int64]

# Ids number train rows from 0 and test rows after them; the sample predicts 2.
assert (train["Id"] == np.arange(len(train))).all()
assert (test["Id"] == np.arange(len(train), len(train) + len(test))).all()
assert (sample["Id"] == test["Id"]).all() and (sample["Cover_Type"] == 2).all()

both = pd.concat([train, test])
assert set(both[wilderness + soils].values.ravel()) == {0, 1}
assert (both["Soil_Type7"] == 0).all() and (both["Soil_Type15"] == 0).all()
# Mostly, but not always, one-hot.
for group in (wilderness, soils):
    ones = both[group].sum(axis=1)
    assert 0.9 < (ones == 1).mean() < 0.99, (ones == 1).mean()
assert both["Elevation"].between(1773, 4383).all()
assert (both["Aspect"] < 0).any() and (both["Aspect"] > 360).any()
assert (both["Hillshade_9am"] <= 301).all()

# Classes 1-7, very uneven: 2 then 1 dominate, the rest are rare.
counts = train["Cover_Type"].value_counts()
assert set(counts.index) <= set(range(1, 8)) and {1, 2, 3, 7} <= set(counts.index), counts
assert counts.index[0] == 2 and counts.index[1] == 1, counts
assert counts[2] / len(train) < 0.65 and counts.get(4, 0) + counts.get(5, 0) < 30, counts

# Split as upstream's prepare does, fit a small tree on the rest.
fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
X = lambda f: f.drop(columns=["Id", "Cover_Type"])
model = DecisionTreeClassifier(max_depth=6, random_state=0).fit(X(fit), fit["Cover_Type"])
accuracy = (model.predict(X(held_out)) == held_out["Cover_Type"]).mean()
baseline = (held_out["Cover_Type"] == 2).mean()  # the sample submission
print(f"accuracy={accuracy:.3f} baseline={baseline:.3f}")
assert accuracy > 0.75 and accuracy > baseline + 0.2, (accuracy, baseline)
)py";

TEST(TabularPlaygroundDec2021RawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
