#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(SmartphoneDecimeterRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree = testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, truths = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.ends_with("/ground_truth.csv")) {
      ++truths;
      EXPECT_EQ(bytes.rfind("MessageType,Provider,LatitudeDegrees,LongitudeDegrees,", 0), 0u) << name;
    }
  }
  EXPECT_GE(truths, 14u);
  EXPECT_TRUE(tree->count("metadata/accumulated_delta_range_sigma_multiplier.csv"));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads the files with the dtypes upstream relies on, drive names
// parse as upstream's get_date expects, and converting the noisy ECEF fixes
// to latitude/longitude (the notebook's ECEF_to_BLH) scores far better than
// the sample submission's constant position.
constexpr char kCheckScript[] = R"py(
import pathlib, sys
import numpy as np
import pandas as pd

raw = pathlib.Path(sys.argv[1])
drives = sorted(p.name for p in (raw / "train").iterdir() if p.is_dir())
dates = set()
for drive in drives:
    y, m, d = drive.split("-")[:3]
    assert y.isdigit() and m.isdigit() and d.isdigit(), drive
    dates.add(f"{y}-{m.zfill(2)}-{d.zfill(2)}")
assert len(dates) >= 10, dates

def haversine(lat1, lng1, lat2, lng2):
    lat1, lng1, lat2, lng2 = map(np.deg2rad, (lat1, lng1, lat2, lng2))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371000 * np.arcsin(np.sqrt(a))

def score(d):
    return np.mean([np.quantile(d, 0.5), np.quantile(d, 0.95)])

model, constant = [], []
for truth_path in sorted(raw.glob("train/*/*/ground_truth.csv")):
    truth = pd.read_csv(truth_path)
    gnss = pd.read_csv(truth_path.parent / "device_gnss.csv")
    assert truth["UnixTimeMillis"].dtype == np.int64
    assert truth["LatitudeDegrees"].dtype == np.float64
    assert (gnss["utcTimeMillis"].values == truth["UnixTimeMillis"].values).all()
    a, b = 6378137.0, 6356752.314245
    e2, e2_ = 6.69437999013e-3, 6.73949674226e-3
    x, y, z = (gnss[f"WlsPosition{c}EcefMeters"].to_numpy() for c in "XYZ")
    r = np.sqrt(x**2 + y**2)
    t = np.arctan2(z * (a / b), r)
    lat = np.rad2deg(np.arctan2(z + (e2_ * b) * np.sin(t) ** 3, r - (e2 * a) * np.cos(t) ** 3))
    lng = np.rad2deg(np.arctan2(y, x))
    model.append(score(haversine(lat, lng, truth["LatitudeDegrees"], truth["LongitudeDegrees"])))
    n = len(truth)
    constant.append(score(haversine(np.full(n, 37.904611315634504), np.full(n, -86.48107806249548),
                                    truth["LatitudeDegrees"], truth["LongitudeDegrees"])))
print(np.mean(model), np.mean(constant))
assert np.mean(model) < 20 and np.mean(constant) > 100000, (np.mean(model), np.mean(constant))
print("ok")
)py";

TEST(SmartphoneDecimeterRawTest, ReadableByPandasWithLearnableSignal) {
  absl::StatusOr<std::filesystem::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ok"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
