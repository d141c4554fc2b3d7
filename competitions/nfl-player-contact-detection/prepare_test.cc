#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path MakeRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::set<std::string> Plays(const Table& table) {
  std::set<std::string> plays;
  for (const Cell& cell : table.Find("game_play")->cells) plays.insert(std::get<std::string>(cell));
  return plays;
}

TEST(NflContactPrepareTest, SplitsByGamePlay) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train_labels.csv");
  const Table test = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("contact_id", "contact"));
  EXPECT_EQ(sample.Find("contact_id")->cells, test.Find("contact_id")->cells);
  const std::set<std::string> test_plays = Plays(test);
  EXPECT_EQ(test_plays.size(), 2u);  // ceil(0.1 * 12)
  EXPECT_EQ(Plays(train).size(), 10u);
  for (const std::string& play : Plays(train)) EXPECT_FALSE(test_plays.contains(play));
  for (const char* name : {"baseline_helmets", "player_tracking", "video_metadata"}) {
    EXPECT_EQ(Plays(testing::ReadCsvOrFail(dirs->public_dir / absl::StrCat("test_", name, ".csv"))), test_plays);
    EXPECT_EQ(Plays(testing::ReadCsvOrFail(dirs->public_dir / absl::StrCat("train_", name, ".csv"))), Plays(train));
  }
  std::vector<std::string> videos;
  for (const std::string& play : test_plays) {
    for (const char* view : {"All29", "Endzone", "Sideline"}) videos.push_back(absl::StrCat(play, "_", view, ".mp4"));
  }
  std::sort(videos.begin(), videos.end());
  EXPECT_EQ(testing::FileNames(dirs->public_dir / "test"), videos);
  EXPECT_EQ(testing::FileNames(dirs->public_dir / "train").size(), 30u);
}

TEST(NflContactPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
(public / "train").mkdir()
(public / "test").mkdir()
old = pd.read_csv(raw / "train_labels.csv")
train_gp, test_gp = train_test_split(old["game_play"].unique(), test_size=0.1, random_state=0)
train = old[old["game_play"].isin(train_gp)]
test = old[old["game_play"].isin(test_gp)]
train.to_csv(public / "train_labels.csv", index=False)
test.to_csv(private / "test.csv", index=False)
for name in ("baseline_helmets", "player_tracking", "video_metadata"):
    df = pd.read_csv(raw / f"train_{name}.csv")
    df[df["game_play"].isin(train_gp)].to_csv(public / f"train_{name}.csv", index=False)
    df[df["game_play"].isin(test_gp)].to_csv(public / f"test_{name}.csv", index=False)
for view in ("All29", "Endzone", "Sideline"):
    for split, frame in (("train", train), ("test", test)):
        for gp in frame["game_play"].unique():
            shutil.copyfile(raw / "train" / f"{gp}_{view}.mp4", public / split / f"{gp}_{view}.mp4")
pd.DataFrame({"contact_id": test["contact_id"], "contact": 0}).to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(NflContactPrepareTest, OutputsMatchPandasByteForByte) {
  for (uint64_t seed : {3, 4}) {
    SCOPED_TRACE(seed);
    const fs::path raw = MakeRaw(seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(NflContactPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(5);
  fs::remove(raw / "train_video_metadata.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(5);
  ASSERT_TRUE(WriteStringToFile(raw / "train_baseline_helmets.csv", "view,left\nAll29,1\n").ok());
  EXPECT_THAT(PrepareStatus(raw).ToString(), HasSubstr("game_play"));
  // A missing video.
  raw = MakeRaw(6);
  for (const fs::directory_entry& entry : fs::directory_iterator(raw / "train")) {
    if (entry.path().filename().string().ends_with("_Sideline.mp4")) {
      fs::remove(entry.path());
      break;
    }
  }
  EXPECT_THAT(PrepareStatus(raw).ToString(), HasSubstr("Sideline.mp4"));
}

}  // namespace
}  // namespace mlebench::prepare_test
