#include <filesystem>
#include <map>
#include <string>

#include "base/files.h"
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
    "PassengerId,HomePlanet,CryoSleep,Cabin,Destination,Age,VIP,RoomService,FoodCourt,"
    "ShoppingMall,Spa,VRDeck,Name";

TEST(SpaceshipTitanicRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
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
  EXPECT_THAT(tree->at("train.csv"), StartsWith(std::string(kFeatureHeader) + ",Transported\n"));
  EXPECT_THAT(tree->at("test.csv"), StartsWith(std::string(kFeatureHeader) + "\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("PassengerId,Transported\n"));
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the files with Kaggle's columns and dtypes, the value formats
// match Kaggle's, and a small logistic regression learns the target.
constexpr char kCheckScript[] = R"py(
import re, sys
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv")
test = pd.read_csv(f"{raw}/test.csv")
sample = pd.read_csv(f"{raw}/sample_submission.csv")

features = ["PassengerId", "HomePlanet", "CryoSleep", "Cabin", "Destination", "Age", "VIP",
            "RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck", "Name"]
spend = ["RoomService", "FoodCourt", "ShoppingMall", "Spa", "VRDeck"]
assert list(train.columns) == features + ["Transported"], list(train.columns)
assert list(test.columns) == features, list(test.columns)
assert list(sample.columns) == ["PassengerId", "Transported"], list(sample.columns)
assert 1700 <= len(train) <= 2400 and 700 <= len(test) <= 1300, (len(train), len(test))

# dtypes as pandas infers them for the real files (booleans with NaN are object).
for frame in (train, test):
    for col in ["PassengerId", "HomePlanet", "CryoSleep", "Cabin", "Destination", "VIP", "Name"]:
        assert frame[col].dtype == object, (col, frame[col].dtype)
    for col in ["Age"] + spend:
        assert frame[col].dtype == np.float64, (col, frame[col].dtype)
assert train["Transported"].dtype == bool
assert sample["Transported"].dtype == bool and not sample["Transported"].any()

both = pd.concat([train, test])
assert both["PassengerId"].str.fullmatch(r"\d{4}_\d{2}").all()
assert both["PassengerId"].is_unique
assert train["PassengerId"].is_monotonic_increasing and test["PassengerId"].is_monotonic_increasing
assert list(sample["PassengerId"]) == list(test["PassengerId"])
# whole groups go to one side
groups = lambda f: set(f["PassengerId"].str[:4])
assert not groups(train) & groups(test)

assert set(both["HomePlanet"].dropna()) == {"Earth", "Europa", "Mars"}
assert set(both["Destination"].dropna()) == {"TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"}
assert set(both["CryoSleep"].dropna()) == {True, False}
assert set(both["VIP"].dropna()) == {True, False}
assert both["Cabin"].dropna().str.fullmatch(r"[A-GT]/\d{1,4}/[PS]").all()
assert both["Name"].dropna().str.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+").all()
ages = both["Age"].dropna()
assert ((ages >= 0) & (ages <= 79) & (ages == ages.round())).all()
assert ((both[spend].fillna(0) >= 0).all().all())
for col in features[1:]:
    rate = both[col].isna().mean()
    assert 0.005 <= rate <= 0.05, (col, rate)
assert not both["PassengerId"].isna().any() and not train["Transported"].isna().any()
# The text spells floats as Kaggle does: "39.0", "0.0".
text = open(f"{raw}/train.csv").read().splitlines()
assert re.search(r",\d+\.0,", text[1]), text[1]
# cryosleepers spend nothing
asleep = both[both["CryoSleep"] == True]
assert (asleep[spend].fillna(0) == 0).all().all()

rate = train["Transported"].mean()
assert 0.4 <= rate <= 0.6, rate

# Split as upstream's prepare does, fit a tiny logistic regression.
def X(f):
    out = pd.DataFrame({
        "cryo": (f["CryoSleep"] == True).astype(float),
        "europa": (f["HomePlanet"] == "Europa").astype(float),
        "earth": (f["HomePlanet"] == "Earth").astype(float),
        "starboard": f["Cabin"].str.endswith("S").fillna(False).astype(float),
    })
    for col in spend:
        out[col] = np.log1p(f[col].fillna(0))
    return out
fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
model = LogisticRegression(max_iter=1000).fit(X(fit), fit["Transported"])
accuracy = (model.predict(X(held_out)) == held_out["Transported"]).mean()
baseline = (held_out["Transported"] == False).mean()  # the sample submission
print(f"accuracy={accuracy:.3f} baseline={baseline:.3f}")
assert accuracy > 0.7 and accuracy > baseline + 0.15, (accuracy, baseline)
# A one-line rule also beats 60%.
rule = ((held_out["CryoSleep"] == True) == held_out["Transported"]).mean()
assert rule > 0.6, rule
)py";

TEST(SpaceshipTitanicRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
