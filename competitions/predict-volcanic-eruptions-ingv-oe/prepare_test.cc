#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawSegment {
  int64_t id;
  int64_t time_to_eruption;
  std::string bytes;  // the segment's sensor CSV
};

std::vector<RawSegment> RandomSegments(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawSegment> segments;
  for (int i = 0; i < count; ++i) {
    // Distinct ids: a random high part and the index.
    const int64_t id = rng.UniformInt(1, 200000) * 10000 + i;
    segments.push_back(RawSegment{id, rng.UniformInt(6000, 49000000),
                                  "sensor_1,sensor_2\n" + std::to_string(rng.UniformInt(-99, 99)) +
                                      ",\n"});
  }
  return segments;
}

// Kaggle's layout: train.csv and train/<segment_id>.csv.
fs::path MakeRaw(const std::vector<RawSegment>& segments) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder csv;
  csv.String("segment_id").String("time_to_eruption").EndRow();
  for (const RawSegment& segment : segments) {
    csv.Int(segment.id).Int(segment.time_to_eruption).EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (std::to_string(segment.id) + ".csv"),
                                  segment.bytes)
                    .ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv.text()).ok());
  return raw;
}

TEST(VolcanicPrepareTest, SplitsAndCopies) {
  const std::vector<RawSegment> segments = RandomSegments(50, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(segments));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));
  EXPECT_EQ(public_files.size(), 2u + 50u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  for (const Table* table : {&train, &answers, &sample}) {
    EXPECT_THAT(table->ColumnNames(), ElementsAre("segment_id", "time_to_eruption"));
  }
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);  // ceil(0.1 * 50)
  ASSERT_EQ(sample.num_rows(), 5u);

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawSegment& segment = segments[split->train_indices[i]];
    EXPECT_EQ(train.Find("segment_id")->cells[i], Cell(segment.id));
    EXPECT_EQ(train.Find("time_to_eruption")->cells[i], Cell(segment.time_to_eruption));
    EXPECT_EQ(public_files.at("train/" + std::to_string(segment.id) + ".csv"), segment.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawSegment& segment = segments[split->test_indices[i]];
    const std::string name = std::to_string(segment.id) + ".csv";
    EXPECT_EQ(answers.Find("segment_id")->cells[i], Cell(segment.id));
    EXPECT_EQ(sample.Find("segment_id")->cells[i], Cell(segment.id));
    EXPECT_EQ(answers.Find("time_to_eruption")->cells[i], Cell(segment.time_to_eruption));
    EXPECT_EQ(sample.Find("time_to_eruption")->cells[i], Cell(int64_t{0}));
    EXPECT_EQ(public_files.at("test/" + name), segment.bytes);
    EXPECT_FALSE(public_files.contains("train/" + name));
  }
}

TEST(VolcanicPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomSegments(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn, files included.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
new_train, answers = train_test_split(old_train, test_size=0.1, random_state=0)
sample = answers.copy()
sample["time_to_eruption"] = 0
answers.to_csv(private / "test.csv", index=False)
new_train.to_csv(public / "train.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for split, frame in (("train", new_train), ("test", answers)):
    (public / split).mkdir()
    for i in frame["segment_id"]:
        shutil.copyfile(raw / "train" / f"{i}.csv", public / split / f"{i}.csv")
)py";

TEST(VolcanicPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [count, seed] : {std::pair{2, 10}, std::pair{97, 11}, std::pair{3000, 12}}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(RandomSegments(count, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(VolcanicPrepareTest, RunsUpstreamsChecks) {
  // A segment listed twice: in both splits, or twice in one (fewer files).
  std::vector<RawSegment> segments = RandomSegments(40, 3);
  for (RawSegment& segment : segments) segment.id = segments[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(segments)).message(), HasSubstr("both train and answers"));
  segments = RandomSegments(40, 3);
  segments[1].id = segments[0].id;
  const absl::Status status = PrepareStatus(MakeRaw(segments));
  EXPECT_FALSE(status.ok());
  // An extra column.
  const fs::path raw = MakeRaw(RandomSegments(10, 4));
  std::string csv = "segment_id,time_to_eruption,volcano\n";
  for (const RawSegment& segment : RandomSegments(10, 4)) {
    csv += std::to_string(segment.id) + ",5,Etna\n";
  }
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("should have columns"));
}

TEST(VolcanicPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const std::vector<RawSegment> segments = RandomSegments(10, 6);
  fs::path raw = MakeRaw(segments);
  fs::remove(raw / "train" / (std::to_string(segments[3].id) + ".csv"));
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(segments);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "segment_id,x\n1,1\n2,0\n3,1\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  // Ids that would name a file outside train/ never reach the file system.
  for (const std::string bad : {"../../escape", "a/b", ""}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomSegments(10, 7));
    std::string csv = "segment_id,time_to_eruption\n";
    for (int i = 0; i < 10; ++i) csv += (i == 4 ? bad : std::to_string(i)) + ",50\n";
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
