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

// The synthetic raw download (competitions/smartphone-decimeter-2022:raw).
fs::path MakeRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::set<std::string> Subdirectories(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  }
  return names;
}

TEST(SmartphoneDecimeterPrepareTest, SplitsDrivesByDate) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(),
              ElementsAre("tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"));
  EXPECT_EQ(sample.ColumnNames(), answers.ColumnNames());
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  EXPECT_EQ(sample.Find("tripId")->cells, answers.Find("tripId")->cells);
  EXPECT_EQ(std::get<double>(sample.Find("LatitudeDegrees")->cells[0]), 37.904611315634504);

  const std::set<std::string> train = Subdirectories(dirs->public_dir / "train");
  const std::set<std::string> test = Subdirectories(dirs->public_dir / "test");
  EXPECT_EQ(train.size() + test.size(), Subdirectories(raw / "train").size());
  EXPECT_FALSE(test.empty());
  for (const std::string& drive : test) EXPECT_FALSE(train.contains(drive)) << drive;
  // Every answers trip is "<test drive>-<phone>"; test drives keep their
  // other files but lose ground_truth.csv.
  std::set<std::string> trips;
  for (const Cell& cell : answers.Find("tripId")->cells) trips.insert(std::get<std::string>(cell));
  for (const std::string& trip : trips) {
    bool found = false;
    for (const std::string& drive : test) found |= trip.starts_with(drive + "-");
    EXPECT_TRUE(found) << trip;
  }
  for (const std::string& name : testing::FileNames(dirs->public_dir / "test")) {
    EXPECT_FALSE(name.ends_with("ground_truth.csv")) << name;
  }
  EXPECT_TRUE(fs::exists(dirs->public_dir / "metadata" / "accumulated_delta_range_sigma_multiplier.csv"));
}

TEST(SmartphoneDecimeterPrepareTest, IsDeterministicAndLeavesRawAlone) {
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

def date(s):
    y, m, d = s.split("-")[:3]
    return f"{y}-{m.zfill(2)}-{d.zfill(2)}"

ids = sorted(p.name for p in (raw / "train").glob("*") if p.is_dir())
train_dates, test_dates = train_test_split(sorted(set(map(date, ids))), test_size=0.1, random_state=0)
for split, chosen in (("train", train_dates), ("test", test_dates)):
    for i in ids:
        if date(i) in chosen:
            shutil.copytree(raw / "train" / i, public / split / i)
dfs = []
for f in sorted((public / "test").rglob("ground_truth.csv")):
    df = pd.read_csv(f)
    df.loc[:, "tripId"] = f"{f.parent.parent.name}-{f.parent.name}"
    dfs.append(df[["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]])
test = pd.concat(dfs, ignore_index=True)
test.to_csv(private / "test.csv", index=False)
for f in (public / "test").rglob("ground_truth.csv"):
    f.unlink()
shutil.copytree(raw / "metadata", public / "metadata")
sample = test.copy()
sample.loc[:, "LatitudeDegrees"] = 37.904611315634504
sample.loc[:, "LongitudeDegrees"] = -86.48107806249548
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(SmartphoneDecimeterPrepareTest, OutputsMatchPandasByteForByte) {
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

// A raw tree with the given drives, each with one phone's ground truth.
fs::path RawWithDrives(const std::vector<std::string>& drives, const std::string& truth) {
  const fs::path raw = testing::NewTempDir("raw");
  for (const std::string& drive : drives) {
    fs::create_directories(raw / "train" / drive / "Pixel4");
    EXPECT_TRUE(WriteStringToFile(raw / "train" / drive / "Pixel4" / "ground_truth.csv", truth).ok());
  }
  fs::create_directories(raw / "metadata");
  EXPECT_TRUE(WriteStringToFile(raw / "metadata" / "m.csv", "a\n1\n").ok());
  return raw;
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(SmartphoneDecimeterPrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  const std::string truth = "LatitudeDegrees,LongitudeDegrees,UnixTimeMillis\n1.5,2.5,100\n";
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  EXPECT_TRUE(PrepareStatus(RawWithDrives({"2021-1-2-US-A", "2021-01-03-US-B"}, truth)).ok());
  // One date only: the split leaves no train date (sklearn raises).
  EXPECT_FALSE(PrepareStatus(RawWithDrives({"2021-01-02-US-A", "2021-1-2-US-B"}, truth)).ok());
  // get_date's checks.
  EXPECT_THAT(PrepareStatus(RawWithDrives({"2021-01", "2021-01-03-US-B"}, truth)).ToString(),
              HasSubstr("fewer than 3"));
  EXPECT_THAT(PrepareStatus(RawWithDrives({"2021-Jan-02-US", "2021-01-03-US-B"}, truth)).ToString(),
              HasSubstr("not digits"));
  // Ground truth without a needed column (pandas' KeyError).
  EXPECT_FALSE(PrepareStatus(RawWithDrives({"2021-01-02-US-A", "2021-01-03-US-B"},
                                           "LatitudeDegrees,UnixTimeMillis\n1.5,100\n"))
                   .ok());
  // No metadata directory.
  fs::path raw = RawWithDrives({"2021-01-02-US-A", "2021-01-03-US-B"}, truth);
  fs::remove_all(raw / "metadata");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // A test drive without ground truth: no trips to concatenate.
  raw = RawWithDrives({"2021-01-02-US-A", "2021-01-03-US-B"}, truth);
  for (const std::string drive : {"2021-01-02-US-A", "2021-01-03-US-B"}) {
    fs::remove(raw / "train" / drive / "Pixel4" / "ground_truth.csv");
  }
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
