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

TEST(VolcanicRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, segments = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.starts_with("train/") && name.ends_with(".csv")) {
      ++segments;
      EXPECT_THAT(bytes, StartsWith("sensor_1,sensor_2,sensor_3,sensor_4,sensor_5,sensor_6,"
                                    "sensor_7,sensor_8,sensor_9,sensor_10\n"));
    }
  }
  EXPECT_EQ(segments, 150u);
  EXPECT_EQ(tree->size(), 151u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("segment_id,time_to_eruption\n"));
  EXPECT_LT(total, 3'000'000u);
}

// pandas reads Kaggle's columns and dtypes; every row has its segment file;
// a linear regression on the log of each segment's mean sensor standard
// deviation, fitted on 90% of the segments, has a mean absolute error on the
// rest far below both the sample submission's (all zeros) and that of
// predicting the training mean.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.metrics import mean_absolute_error
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["segment_id", "time_to_eruption"], list(train.columns)
assert list(train.dtypes) == [np.int64, np.int64], train.dtypes
assert len(train) == 150 and train["segment_id"].is_unique
assert train["segment_id"].between(1, 2**31 - 1).all()
assert sorted(p.name for p in (raw / "train").iterdir()) == sorted(f"{i}.csv" for i in train["segment_id"])
sensors = [f"sensor_{k}" for k in range(1, 11)]
features = []
missing = 0
for i in train["segment_id"]:
    seg = pd.read_csv(raw / "train" / f"{i}.csv")
    assert list(seg.columns) == sensors and len(seg) == 100, i
    for c in sensors:
        assert seg[c].dtype == np.int64 or seg[c].isna().all(), (i, c, seg[c].dtype)
        missing += seg[c].isna().all()
    features.append(np.log(np.nanmean(seg.std().to_numpy())))
assert missing > 0
X = np.array(features).reshape(-1, 1)
y = train["time_to_eruption"].to_numpy()
X_fit, X_val, y_fit, y_val = train_test_split(X, y, test_size=0.1, random_state=0)
model = mean_absolute_error(y_val, LinearRegression().fit(X_fit, y_fit).predict(X_val))
zeros = mean_absolute_error(y_val, np.zeros(len(y_val)))
mean = mean_absolute_error(y_val, np.full(len(y_val), y_fit.mean()))
print(f"model={model:.0f} zeros={zeros:.0f} mean={mean:.0f}")
assert model < 0.4 * mean and model < 0.3 * zeros, (model, mean, zeros)
)py";

TEST(VolcanicRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
