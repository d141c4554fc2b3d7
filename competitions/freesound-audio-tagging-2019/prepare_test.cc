#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "competitions/freesound-audio-tagging-2019/class_names.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using freesound::ClassNames;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawOptions {
  int private_clips = 12;
  int public_clips = 5;
  int sample_rows_delta = 0;      // extra rows in the sample submission
  bool rename_sample_clip = false;
  std::string bad_labels;         // replaces one private clip's labels
  bool with_meta = true;
};

// Kaggle's files (audio archives with recognisable bytes) plus
// FSDKaggle2019.meta.zip with test_post_competition.csv.
fs::path MakeRaw(uint64_t seed, const RawOptions& options = {}) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train_curated.csv", "fname,labels\na.wav,\"Bark,Bus\"\n").ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train_noisy.csv", "fname,labels\nb.wav,Bark\n").ok());
  EXPECT_TRUE(WriteZip(raw / "train_curated.zip", {ZipEntry::FromBytes("a.wav", "RIFF a")}).ok());
  EXPECT_TRUE(WriteZip(raw / "test.zip", {ZipEntry::FromBytes("t.wav", "RIFF t")}).ok());
  fs::create_directories(raw / "extra_folder");
  EXPECT_TRUE(WriteStringToFile(raw / "extra_folder" / "note.txt", "kept").ok());
  std::string meta = "fname,labels,usage,freesound_id,license\n";
  std::string sample = absl::StrCat("fname,", absl::StrJoin(ClassNames(), ","), "\n");
  const std::string zeros = absl::StrCat(",", absl::StrJoin(std::vector<std::string>(80, "0"), ","));
  const int total = options.private_clips + options.public_clips;
  int private_seen = 0;
  for (int i = 0; i < total; ++i) {
    const bool is_private = rng.UniformInt(uint64_t(total - i)) <
                            uint64_t(options.private_clips - private_seen);
    private_seen += is_private;
    const std::string fname = absl::StrCat(rng.Hex(8), ".wav");
    std::vector<std::string> labels;
    for (int n = 0; n < 1 + static_cast<int>(rng.UniformInt(uint64_t{3})); ++n) {
      labels.push_back(ClassNames()[rng.UniformInt(uint64_t{80})]);
    }
    std::string label_text = absl::StrCat("\"", absl::StrJoin(labels, ","), "\"");
    if (is_private && private_seen == 1 && !options.bad_labels.empty()) {
      label_text = options.bad_labels;
    }
    absl::StrAppend(&meta, fname, ",", label_text, ",", is_private ? "Private" : "Public", ",",
                    rng.UniformInt(uint64_t{400000}), ",CC-BY\n");
    if (is_private) {
      const bool rename = options.rename_sample_clip && private_seen == 1;
      absl::StrAppend(&sample, rename ? "renamed.wav" : fname, zeros, "\n");
    }
  }
  for (int i = 0; i < options.sample_rows_delta; ++i) absl::StrAppend(&sample, "x", i, ".wav", zeros, "\n");
  EXPECT_TRUE(WriteStringToFile(raw / "sample_submission.csv", sample).ok());
  if (options.with_meta) {
    EXPECT_TRUE(WriteZip(raw / "FSDKaggle2019.meta.zip",
                         {ZipEntry::Directory("FSDKaggle2019.meta/"),
                          ZipEntry::FromBytes("FSDKaggle2019.meta/test_post_competition.csv", meta)})
                    .ok());
  }
  return raw;
}

TEST(FreesoundPrepareTest, CopiesRawAndBuildsManyHotAnswers) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  auto expected_public = testing::ReadTree(raw);
  expected_public.erase("FSDKaggle2019.meta.zip");
  EXPECT_EQ(testing::ReadTree(dirs->public_dir), expected_public);
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  EXPECT_EQ(answers.num_rows(), 12u);
  EXPECT_EQ(answers.num_columns(), 81u);
  EXPECT_EQ(answers.columns()[0].name, "fname");
  for (size_t c = 1; c < 81; ++c) EXPECT_EQ(answers.columns()[c].dtype, Dtype::kInt64);
}

TEST(FreesoundPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The answers half of upstream's prepare() restated with pandas.
constexpr char kReference[] = R"py(
import sys, zipfile
import pandas as pd

raw, private, classes = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
zipfile.ZipFile(f"{raw}/FSDKaggle2019.meta.zip").extractall(f"{private}/scratch")
meta = pd.read_csv(f"{private}/scratch/FSDKaggle2019.meta/test_post_competition.csv")
rows = []
for _, row in meta[meta["usage"] == "Private"].iterrows():
    labels = row["labels"].split(",")
    rows.append([row["fname"]] + [1 if c in labels else 0 for c in classes])
pd.DataFrame(rows, columns=["fname"] + classes).to_csv(f"{private}/test.csv", index=False)
)py";

TEST(FreesoundPrepareTest, AnswersMatchPandasByteForByte) {
  for (const auto& [clips, seed] : std::vector<std::pair<int, uint64_t>>{{1, 10}, {7, 11}, {300, 12}}) {
    SCOPED_TRACE(clips);
    RawOptions options;
    options.private_clips = clips;
    const fs::path raw = MakeRaw(seed, options);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), reference.string(), absl::StrJoin(ClassNames(), ",")});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(ReadFileToString(ours->private_dir / "test.csv").value_or("ours missing"),
              ReadFileToString(reference / "test.csv").value_or("reference missing"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(FreesoundPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  RawOptions no_meta;
  no_meta.with_meta = false;
  EXPECT_THAT(PrepareStatus(MakeRaw(3, no_meta)).message(), HasSubstr("zenodo.org/records/3612637"));
  RawOptions extra_rows;
  extra_rows.sample_rows_delta = 2;
  EXPECT_THAT(PrepareStatus(MakeRaw(4, extra_rows)).message(), HasSubstr("rows in test.csv"));
  RawOptions renamed;
  renamed.rename_sample_clip = true;
  EXPECT_THAT(PrepareStatus(MakeRaw(5, renamed)).message(), HasSubstr("'fname' to match"));
  // An empty labels field ("" quoted): pandas reads NaN, which has no split().
  RawOptions nan_labels;
  nan_labels.bad_labels = "\"\"";
  EXPECT_THAT(PrepareStatus(MakeRaw(6, nan_labels)).message(), HasSubstr("cannot be split"));
  // A corrupt metadata archive.
  const fs::path corrupt = MakeRaw(7);
  ASSERT_TRUE(WriteStringToFile(corrupt / "FSDKaggle2019.meta.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(corrupt).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
