#include <algorithm>
#include <cstdio>
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
#include "formats/seven_zip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Entries of a raw train.7z: "train/audio/<label>/<file>.wav" -> bytes, plus
// whatever else Kaggle puts beside them.
using RawTree = std::map<std::string, std::string>;

RawTree RandomClips(int count, uint64_t seed) {
  static const std::vector<std::string> kLabels = {"yes", "no", "bed", "_background_noise_",
                                                   "up", "happy"};
  SyntheticRng rng(seed);
  std::vector<std::string> speakers;
  for (int i = 0; i < 40; ++i) speakers.push_back(rng.Hex(8));  // 720 possible clips
  RawTree tree;
  while (static_cast<int>(tree.size()) < count) {
    // Speakers repeat across labels, so file names do too.
    const std::string name = rng.Choice(speakers) + "_nohash_" +
                             std::to_string(rng.UniformInt(0, 2)) + ".wav";
    tree["train/audio/" + rng.Choice(kLabels) + "/" + name] = "RIFF" + rng.Hex(20);
  }
  return tree;
}

fs::path MakeRaw(const RawTree& clips) {
  const fs::path raw = testing::NewTempDir("raw");
  std::vector<SevenZipEntry> entries = {
      SevenZipEntry::FromBytes("train/validation_list.txt", "yes/x.wav\n"),
      SevenZipEntry::FromBytes("train/audio/_background_noise_/README.md", "noise\n")};
  for (const auto& [name, bytes] : clips) entries.push_back(SevenZipEntry::FromBytes(name, bytes));
  EXPECT_TRUE(Write7z(raw / "train.7z", entries).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "link_to_gcp_credits_form.txt", "link\n").ok());
  return raw;
}

// Upstream's prepare() restated with pathlib, pandas and scikit-learn, on a
// tree we extracted (py7zr is not installed): same files, names and CSVs.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

extracted, public, private = map(Path, sys.argv[1:4])
files = sorted(((p.parent.name, p) for p in (extracted / "train" / "audio").rglob("*.wav")),
               key=lambda f: f"{f[0]}_{f[1].name}")
train, test = train_test_split(files, test_size=0.1, random_state=0)
for label, path in train:
    (public / "train" / "audio" / label).mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, public / "train" / "audio" / label / path.name)
(public / "test" / "audio").mkdir(parents=True, exist_ok=True)
records = []
for i, (label, path) in enumerate(test):
    name = f"clip_{str(i).zfill(8)}.wav"
    records.append({"fname": name, "label": label})
    shutil.copyfile(path, public / "test" / "audio" / name)
answers = pd.DataFrame.from_records(records)
answers.to_csv(private / "test.csv", index=False)
sample = answers.drop(columns=["label"]).copy()
sample["label"] = "silence"
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(SpeechPrepareTest, MatchesPythonRestatementFileForFile) {
  for (const auto& [clips, seed] : std::vector<std::pair<int, uint64_t>>{{2, 1}, {37, 2}, {300, 3}}) {
    SCOPED_TRACE(clips);
    const fs::path raw = MakeRaw(RandomClips(clips, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    ASSERT_TRUE(Extract7z(raw / "train.7z", reference / "extracted").ok());
    const testing::CommandResult run = testing::RunPython(
        kReference, {(reference / "extracted").string(), (reference / "public").string(),
                     (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(SpeechPrepareTest, SplitsClipsAndRenamesTestClips) {
  const RawTree clips = RandomClips(100, 4);
  const fs::path raw = MakeRaw(clips);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("fname", "label"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("fname", "label"));
  ASSERT_EQ(answers.num_rows(), 10u);
  ASSERT_EQ(sample.num_rows(), 10u);

  // Clips sorted by "<label>_<name>", then split; the test clips numbered in
  // split order.
  std::vector<std::pair<std::string, std::string>> sorted;  // key, entry name
  for (const auto& [name, bytes] : clips) {
    const fs::path path(name);
    sorted.emplace_back(path.parent_path().filename().string() + "_" + path.filename().string(),
                        name);
  }
  std::sort(sorted.begin(), sorted.end());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(100, options);
  ASSERT_TRUE(split.ok());
  const auto public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_EQ(public_files.size(), 1 + 100u);  // sample_submission.csv and every clip
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const std::string& entry = sorted[split->test_indices[i]].second;
    char fname[32];
    std::snprintf(fname, sizeof(fname), "clip_%08zu.wav", i);
    EXPECT_EQ(answers.Find("fname")->cells[i], Cell(std::string(fname)));
    EXPECT_EQ(answers.Find("label")->cells[i],
              Cell(fs::path(entry).parent_path().filename().string()));
    EXPECT_EQ(sample.Find("fname")->cells[i], Cell(std::string(fname)));
    EXPECT_EQ(sample.Find("label")->cells[i], Cell(std::string("silence")));
    EXPECT_EQ(public_files.at(std::string("test/audio/") + fname), clips.at(entry));
  }
  for (int64_t index : split->train_indices) {
    const std::string& entry = sorted[index].second;
    // Train clips keep their folder and name.
    EXPECT_EQ(public_files.at(entry), clips.at(entry));
  }
}

TEST(SpeechPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomClips(50, 5));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(SpeechPrepareTest, RejectsBadRawData) {
  EXPECT_THAT(PrepareStatus(testing::NewTempDir("empty_raw")).message(), HasSubstr("train.7z"));
  // Not a 7z archive.
  const fs::path corrupt = MakeRaw(RandomClips(20, 6));
  ASSERT_TRUE(WriteStringToFile(corrupt / "train.7z", "PK\x03\x04 not 7z").ok());
  EXPECT_THAT(PrepareStatus(corrupt).message(), HasSubstr("train.7z"));
  // No clips at all (sklearn cannot split an empty list), or just one.
  EXPECT_THAT(PrepareStatus(MakeRaw({})).message(), HasSubstr("no .wav files"));
  EXPECT_FALSE(PrepareStatus(MakeRaw(RandomClips(1, 7))).ok());
  // A folder named like a clip.
  const fs::path folder_clip = testing::NewTempDir("folder_clip");
  ASSERT_TRUE(Write7z(folder_clip / "train.7z",
                      {SevenZipEntry::FromBytes("train/audio/yes/a.wav", "a"),
                       SevenZipEntry::FromBytes("train/audio/no/b.wav", "b"),
                       SevenZipEntry::Directory("train/audio/up/c.wav")})
                  .ok());
  EXPECT_THAT(PrepareStatus(folder_clip).message(), HasSubstr("is not a file"));
}

}  // namespace
}  // namespace mlebench::prepare_test
