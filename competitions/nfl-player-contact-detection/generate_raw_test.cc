#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(NflContactRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree = testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, videos = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.starts_with("train/") && name.ends_with(".mp4")) {
      ++videos;
      EXPECT_EQ(bytes.substr(4, 4), "ftyp") << name;
    }
  }
  EXPECT_EQ(videos, 36u);  // 12 plays x 3 views
  for (const char* csv : {"train_labels.csv", "train_player_tracking.csv", "train_baseline_helmets.csv",
                          "train_video_metadata.csv"}) {
    EXPECT_TRUE(tree->count(csv)) << csv;
  }
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads the tables with Kaggle's columns and dtypes (nfl_player_id_2
// mixes ids and "G", so it is object), every play has its three videos, and
// thresholding tracked distances and speeds (a model any agent can fit)
// scores a high Matthews correlation, while the all-zero sample scores 0.
constexpr char kCheckScript[] = R"py(
import pathlib, sys
import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef

raw = pathlib.Path(sys.argv[1])
labels = pd.read_csv(raw / "train_labels.csv")
tracking = pd.read_csv(raw / "train_player_tracking.csv")
helmets = pd.read_csv(raw / "train_baseline_helmets.csv")
meta = pd.read_csv(raw / "train_video_metadata.csv")
assert list(labels.columns) == ["contact_id", "game_play", "datetime", "step", "nfl_player_id_1",
                                "nfl_player_id_2", "contact"]
assert labels["nfl_player_id_2"].dtype == object and labels["nfl_player_id_1"].dtype == np.int64
assert labels["game_play"].dtype == object and labels["contact"].dtype == np.int64
assert labels["contact_id"].is_unique
for frame in (tracking, helmets, meta):
    assert "game_play" in frame.columns
for gp in labels["game_play"].unique():
    for view in ("All29", "Endzone", "Sideline"):
        assert (raw / "train" / f"{gp}_{view}.mp4").is_file()
pos = tracking.set_index(["game_play", "step", "nfl_player_id"])
def predict(row):
    a = pos.loc[(row.game_play, row.step, row.nfl_player_id_1)]
    if row.nfl_player_id_2 == "G":
        return int(a.speed < 0.4)
    b = pos.loc[(row.game_play, row.step, int(row.nfl_player_id_2))]
    return int(np.hypot(a.x_position - b.x_position, a.y_position - b.y_position) < 1.2)
pred = [predict(r) for r in labels.itertuples()]
mcc = matthews_corrcoef(labels["contact"], pred)
base = matthews_corrcoef(labels["contact"], np.zeros(len(labels), dtype=int))
print(mcc, base, labels["contact"].mean())
assert mcc > 0.9 and base == 0 and 0.05 < labels["contact"].mean() < 0.5
print("ok")
)py";

TEST(NflContactRawTest, ReadableByPandasWithLearnableSignal) {
  absl::StatusOr<std::filesystem::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ok"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
