#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawClip {
  std::string name;  // "YYYYMMDD_HHMMSS_<s>s<ms>ms_TRAIN<idx>_<label>.aif"
  std::string bytes;
};

// `per_day` clips on each of `days` consecutive days, numbered in time order.
std::vector<RawClip> RandomClips(int days, int per_day, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawClip> clips;
  for (int day = 0; day < days; ++day) {
    for (int i = 0; i < per_day; ++i) {
      clips.push_back(
          {absl::StrFormat("200903%02d_%02d%02d00_%03ds%dms_TRAIN%d_%d.aif", 20 + day, i / 4,
                           15 * (i % 4), rng.UniformInt(0, 899), rng.UniformInt(0, 9), clips.size(),
                           rng.Bernoulli(0.3) ? 1 : 0),
           "FORM" + rng.Hex(20)});
    }
  }
  return clips;
}

// Kaggle's layout: train2.zip holding train2/<clip>.
fs::path MakeRaw(const std::vector<RawClip>& clips) {
  const fs::path raw = testing::NewTempDir("raw");
  std::vector<ZipEntry> entries = {ZipEntry::Directory("train2/")};
  for (const RawClip& clip : clips)
    entries.push_back(ZipEntry::FromBytes("train2/" + clip.name, clip.bytes));
  EXPECT_TRUE(WriteZip(raw / "train2.zip", entries).ok());
  return raw;
}

std::map<std::string, std::string> Unzip(const fs::path& zip) {
  const fs::path out = testing::NewTempDir("unzipped");
  EXPECT_TRUE(ExtractZip(zip, out).ok()) << zip;
  return testing::ReadTree(out);
}

TEST(RightWhaleReduxPrepareTest, SplitsByDayAndRenames) {
  // Shuffled so that the archive's order is not the time order.
  std::vector<RawClip> clips = RandomClips(4, 3, 1);
  std::vector<RawClip> shuffled = clips;
  SyntheticRng(9).Shuffle(shuffled);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(shuffled));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sampleSubmission.csv", "test2.zip", "train2.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  std::map<std::string, std::string> expected_train, expected_test;
  std::string expected_answers = "clip,probability\n", expected_sample = "clip,probability\n";
  for (int i = 0; i < 6; ++i) {
    std::string name = clips[i].name;
    name.replace(name.find("TRAIN"), name.find('_', name.find("TRAIN")) - name.find("TRAIN"),
                 absl::StrCat("TRAIN", i));
    expected_train["train2/" + name] = clips[i].bytes;
  }
  for (int i = 0; i < 6; ++i) {
    const std::string& old = clips[6 + i].name;
    const std::string name = old.substr(0, old.find("TRAIN")) + absl::StrCat("Test", i, ".aif");
    expected_test["test2/" + name] = clips[6 + i].bytes;
    absl::StrAppend(&expected_answers, name, ",", old[old.size() - 5] == '1' ? "1" : "0", "\n");
    absl::StrAppend(&expected_sample, name, ",0\n");
  }
  EXPECT_EQ(Unzip(dirs->public_dir / "train2.zip"), expected_train);
  EXPECT_EQ(Unzip(dirs->public_dir / "test2.zip"), expected_test);
  EXPECT_EQ(*ReadFileToString(dirs->private_dir / "test.csv"), expected_answers);
  EXPECT_EQ(*ReadFileToString(dirs->public_dir / "sampleSubmission.csv"), expected_sample);
  // The archives hold their folder, then its clips in name order.
  absl::StatusOr<std::vector<std::string>> names = ListZip(dirs->public_dir / "test2.zip");
  ASSERT_TRUE(names.ok());
  std::vector<std::string> expected_names = {"test2/"};
  for (const auto& [name, bytes] : expected_test) expected_names.push_back(name);
  EXPECT_EQ(*names, expected_names);
}

TEST(RightWhaleReduxPrepareTest, RenumberingFollowsUpstreamsRegex) {
  // Names whose TRAIN part is odd: a bare "TRAIN", two numbered parts, none.
  const std::vector<RawClip> clips = {{"20090101_TRAINx_TRAIN7_TRAIN8_0.aif", "a"},
                                      {"20090101_zz.aif", "b"},
                                      {"20090102_TRAIN3_1.aif", "c"},
                                      {"20090103_TRAIN4_1.aif", "d"},
                                      {"20090104_x_1.aif", "e"}};
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(clips));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(Unzip(dirs->public_dir / "train2.zip"),
            (std::map<std::string, std::string>{{"train2/20090101_TRAINx_TRAIN0_TRAIN0_0.aif", "a"},
                                                {"train2/20090101_zz.aif", "b"},
                                                {"train2/20090102_TRAIN2_1.aif", "c"}}));
  // No "TRAIN": the whole name is the prefix.
  EXPECT_EQ(*ReadFileToString(dirs->private_dir / "test.csv"),
            "clip,probability\n20090103_Test0.aif,1\n20090104_x_1.aifTest1.aif,1\n");
}

TEST(RightWhaleReduxPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomClips(4, 5, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream unpacks into raw/; we do not
}

// Upstream's prepare() restated (on a copy of raw/, which it modifies): the
// CSV files and the archives' member names and contents.
constexpr char kReference[] = R"py(
import re, shutil, sys, zipfile
from pathlib import Path
import pandas as pd

raw, public, private = (Path(p) for p in sys.argv[1:4])
shutil.unpack_archive(raw / "train2.zip", public.parent / "unpacked")
by_date = {}
for sample in (public.parent / "unpacked" / "train2").iterdir():
    by_date.setdefault(sample.name.split("_")[0], []).append(sample)
assert len(by_date) == 4
dates = sorted(by_date)
new_train = sorted(by_date[dates[0]] + by_date[dates[1]])
new_test = sorted(by_date[dates[2]] + by_date[dates[3]])
(public / "train2").mkdir()
(public / "test2").mkdir()
for idx, sample in enumerate(new_train):
    shutil.copy(sample, public / "train2" / re.sub(r"TRAIN\d+", f"TRAIN{idx}", sample.name))
rows = []
for idx, sample in enumerate(new_test):
    name = sample.name.split("TRAIN")[0] + f"Test{idx}.aif"
    shutil.copy(sample, public / "test2" / name)
    rows.append({"clip": name, "probability": 1 if sample.stem.endswith("_1") else 0})
answers = pd.DataFrame(rows)
answers.to_csv(private / "test.csv", index=False)
sample = answers.copy()
sample["probability"] = 0
sample.to_csv(public / "sampleSubmission.csv", index=False)
for folder in ("train2", "test2"):
    with open(public / f"{folder}.members", "w") as out:
        for p in sorted((public / folder).iterdir()):
            out.write(f"{folder}/{p.name} {p.read_bytes().hex()}\n")
    shutil.rmtree(public / folder)
)py";

std::string Members(const fs::path& zip, const std::string& folder) {
  std::string out;
  for (const auto& [name, bytes] : Unzip(zip)) {
    std::string hex;
    for (unsigned char c : bytes) absl::StrAppend(&hex, absl::Hex(c, absl::kZeroPad2));
    absl::StrAppend(&out, folder, "/", name.substr(folder.size() + 1), " ", hex, "\n");
  }
  return out;
}

TEST(RightWhaleReduxPrepareTest, MatchesPythonRestatement) {
  for (const auto& [per_day, seed] :
       std::vector<std::pair<int, uint64_t>>{{1, 10}, {7, 11}, {60, 12}}) {
    SCOPED_TRACE(per_day);
    std::vector<RawClip> clips = RandomClips(4, per_day, seed);
    SyntheticRng(seed).Shuffle(clips);
    const fs::path raw = MakeRaw(clips);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(*ReadFileToString(ours->public_dir / "sampleSubmission.csv"),
              *ReadFileToString(reference / "public" / "sampleSubmission.csv"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
    EXPECT_EQ(Members(ours->public_dir / "train2.zip", "train2"),
              *ReadFileToString(reference / "public" / "train2.members"));
    EXPECT_EQ(Members(ours->public_dir / "test2.zip", "test2"),
              *ReadFileToString(reference / "public" / "test2.members"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(RightWhaleReduxPrepareTest, RunsUpstreamsChecks) {
  EXPECT_THAT(PrepareStatus(MakeRaw(RandomClips(3, 4, 3))).message(), HasSubstr("Expected 4 days"));
  EXPECT_THAT(PrepareStatus(MakeRaw(RandomClips(5, 4, 4))).message(), HasSubstr("Expected 4 days"));
  // A training clip that is not .aif is not counted by upstream's glob.
  std::vector<RawClip> clips = RandomClips(4, 3, 5);
  clips[0].name += ".wav";
  EXPECT_THAT(PrepareStatus(MakeRaw(clips)).message(), HasSubstr("samples in new_train"));
}

TEST(RightWhaleReduxPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // Clips at the archive root instead of under train2/.
  const fs::path flat = testing::NewTempDir("flat");
  ASSERT_TRUE(
      WriteZip(flat / "train2.zip", {ZipEntry::FromBytes("20090101_TRAIN0_1.aif", "x")}).ok());
  EXPECT_THAT(PrepareStatus(flat).message(), HasSubstr("no folder train2/"));
  // A folder among the clips.
  const fs::path nested = MakeRaw(RandomClips(4, 2, 6));
  std::vector<ZipEntry> entries = {ZipEntry::Directory("train2/")};
  for (const RawClip& clip : RandomClips(4, 2, 6)) {
    entries.push_back(ZipEntry::FromBytes("train2/" + clip.name, clip.bytes));
  }
  entries.push_back(ZipEntry::FromBytes("train2/20090320_sub/x.aif", "x"));
  ASSERT_TRUE(WriteZip(nested / "train2.zip", entries).ok());
  EXPECT_THAT(PrepareStatus(nested).message(), HasSubstr("is not a file"));
  // Not a zip at all.
  const fs::path garbage = testing::NewTempDir("garbage");
  ASSERT_TRUE(WriteStringToFile(garbage / "train2.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(garbage).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
