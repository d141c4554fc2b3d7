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

TEST(NycTaxiFareRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("GCP-Coupons-Instructions.rtf", "sample_submission.csv",
                                 "test.csv", "train.csv"));
  EXPECT_THAT(tree->at("train.csv"),
              StartsWith("key,fare_amount,pickup_datetime,pickup_longitude,pickup_latitude,"
                         "dropoff_longitude,dropoff_latitude,passenger_count\n"));
  EXPECT_THAT(tree->at("test.csv"),
              StartsWith("key,pickup_datetime,pickup_longitude,pickup_latitude,"
                         "dropoff_longitude,dropoff_latitude,passenger_count\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("key,fare_amount\n"));
  EXPECT_THAT(tree->at("GCP-Coupons-Instructions.rtf"), StartsWith("{\\rtf1"));
  EXPECT_LT(total, 2'500'000u);
}

// pandas reads Kaggle's columns and dtypes; keys, times and coordinates look
// like Kaggle's; and, split as upstream's prepare.py splits, a linear model
// on straight-line distance beats the sample submission's constant by far.
constexpr char kCheckScript[] = R"py(
import sys
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv")
test = pd.read_csv(f"{raw}/test.csv")
sample = pd.read_csv(f"{raw}/sample_submission.csv")
coords = ["pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude"]
features = ["key", "pickup_datetime"] + coords + ["passenger_count"]
assert list(train.columns) == ["key", "fare_amount"] + features[1:], list(train.columns)
assert list(test.columns) == features, list(test.columns)
assert list(sample.columns) == ["key", "fare_amount"], list(sample.columns)
assert len(train) == 12500 and len(test) == 1500 and len(sample) == 1500
for frame in (train, test):
    assert frame["key"].dtype == object and frame["pickup_datetime"].dtype == object
    assert frame["passenger_count"].dtype == np.int64
    for col in coords:
        assert frame[col].dtype == np.float64, col
    assert not frame.isna().any().any()
    assert frame["key"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{7}").all()
    assert frame["pickup_datetime"].str.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC").all()
    assert (frame["key"].str[:19] == frame["pickup_datetime"].str[:19]).all()
    when = pd.to_datetime(frame["pickup_datetime"].str[:19])
    assert when.min() >= pd.Timestamp("2009-01-01") and when.max() < pd.Timestamp("2015-07-01")
    assert frame["passenger_count"].between(0, 6).all()
    zero = (frame[coords] == 0).all(axis=1).mean()
    assert 0.003 < zero < 0.03, zero
    placed = frame[(frame[coords] != 0).all(axis=1)]
    assert placed["pickup_longitude"].between(-74.2, -73.6).all()
    assert placed["pickup_latitude"].between(40.5, 41.0).all()
assert train["fare_amount"].dtype == np.float64
assert pd.concat([train["key"], test["key"]]).is_unique
assert list(sample["key"]) == list(test["key"]) and (sample["fare_amount"] == 11.35).all()
assert (train["fare_amount"] < 0).mean() < 0.005
assert 8 < train["fare_amount"].mean() < 16, train["fare_amount"].mean()
# Fares step by the meter: tenths before September 2012, halves after.
cents = np.round(train["fare_amount"] * 100).astype(int)
tolls = np.isclose(train["fare_amount"] % 1, 0.33)
assert ((cents % 10 == 0) | tolls).mean() > 0.99

def X(f):
    lat1, lon1, lat2, lon2 = (np.radians(f[c]) for c in ["pickup_latitude", "pickup_longitude",
                                                         "dropoff_latitude", "dropoff_longitude"])
    h = (np.sin((lat2 - lat1) / 2) ** 2
         + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2)
    km = np.where((f[coords] == 0).any(axis=1), 5.0, 2 * 6371 * np.arcsin(np.sqrt(h)))
    year = f["pickup_datetime"].str[:4].astype(int)
    return np.column_stack([km, km * (year >= 2013), year])

fit, held_out = train_test_split(train, test_size=9914, random_state=0)
model = LinearRegression().fit(X(fit), fit["fare_amount"])
rmse = np.sqrt(np.mean((model.predict(X(held_out)) - held_out["fare_amount"]) ** 2))
baseline = np.sqrt(np.mean((11.35 - held_out["fare_amount"]) ** 2))
print(f"rmse={rmse:.3f} baseline={baseline:.3f}")
assert rmse < 0.5 * baseline, (rmse, baseline)
)py";

TEST(NycTaxiFareRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
