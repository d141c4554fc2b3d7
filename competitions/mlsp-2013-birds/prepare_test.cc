#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
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
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kRoot[] = "mlsp_contest_dataset/";

// The files of Kaggle's mlsp_contest_dataset.zip for `train` fold-0 and
// `test` fold-1 recordings, interleaved; recording k is rec_id k. Labels,
// features and file contents are random but recognisable.
std::map<std::string, std::string> RawFiles(int train, int test, uint64_t seed) {
  SyntheticRng rng(seed);
  std::map<std::string, std::string> files;
  std::string folds = "rec_id,fold\n", names = "rec_id,filename\n", labels = "rec_id,[labels]\n";
  std::string histogram = "rec_id,[histogram of segment features]\n";
  std::string features = "rec_id,[segment_id],[feature vector]\n";
  std::string rectangles = "rec_id,[segment_id],[min_x],[max_x],[min_y],[max_y],\n";
  int left_train = train, left_test = test;
  for (int rec = 0; left_train + left_test > 0; ++rec) {
    const bool is_test = rng.UniformInt(left_train + left_test) < static_cast<uint64_t>(left_test);
    (is_test ? left_test : left_train)--;
    const std::string name = absl::StrCat("PC", rec % 7, "_2009060", rec % 9, "_", 10000 + rec);
    absl::StrAppend(&folds, rec, ",", is_test ? 1 : 0, "\n");
    absl::StrAppend(&names, rec, ",", name, "\n");
    if (is_test) {
      absl::StrAppend(&labels, rec, ",?\n");
    } else {
      std::string species;
      for (int s = 0; s < 19; ++s) {
        if (rng.Bernoulli(0.1)) absl::StrAppend(&species, species.empty() ? "" : ",", s);
      }
      absl::StrAppend(&labels, rec, species.empty() ? "" : ",", species, "\n");
    }
    absl::StrAppend(&histogram, rec, ",", rng.Uniform(), ",0.0,", rng.Uniform(), "\n");
    const int segments = static_cast<int>(rng.UniformInt(3));
    for (int s = 0; s < segments; ++s) {
      absl::StrAppend(&features, rec, ",", s, ",", rng.Uniform(), ",", rng.Uniform(), "\n");
      absl::StrAppend(&rectangles, rec, ",", s, ",1,", 2 + s, ",3,4,\n");
    }
    files[absl::StrCat(kRoot, "essential_data/src_wavs/", name, ".wav")] = "RIFF" + name;
    for (const char* dir : {"filtered_spectrograms", "spectrograms", "supervised_segmentation"}) {
      files[absl::StrCat(kRoot, "supplemental_data/", dir, "/", name, ".bmp")] =
          absl::StrCat("BM", dir, name);
    }
    if (rec % 5 == 0) {
      files[absl::StrCat(kRoot, "supplemental_data/segmentation_examples/", name, ".bmp")] =
          "BMexample" + name;
    }
  }
  files[absl::StrCat(kRoot, "essential_data/CVfolds_2.txt")] = folds;
  files[absl::StrCat(kRoot, "essential_data/rec_id2filename.txt")] = names;
  files[absl::StrCat(kRoot, "essential_data/rec_labels_test_hidden.txt")] = labels;
  files[absl::StrCat(kRoot, "essential_data/species_list.txt")] =
      "class_id,code,species\n0,BRCR,Brown Creeper\n";
  files[absl::StrCat(kRoot, "supplemental_data/histogram_of_segments.txt")] = histogram;
  files[absl::StrCat(kRoot, "supplemental_data/segment_features.txt")] = features;
  files[absl::StrCat(kRoot, "supplemental_data/segment_rectangles.txt")] = rectangles;
  files[absl::StrCat(kRoot, "supplemental_data/segment_clusters.bmp")] = "BMclusters";
  files[absl::StrCat(kRoot, "supplemental_data/segment_mosaic.bmp")] = "BMmosaic";
  return files;
}

fs::path MakeRaw(const std::map<std::string, std::string>& files) {
  const fs::path raw = testing::NewTempDir("raw");
  std::vector<ZipEntry> entries;
  for (const auto& [name, bytes] : files) entries.push_back(ZipEntry::FromBytes(name, bytes));
  EXPECT_TRUE(WriteZip(raw / "mlsp_contest_dataset.zip", entries).ok());
  return raw;
}

// Upstream's prepare() restated with pandas and plain Python, reading the
// extracted archive.
constexpr char kReference[] = R"py(
import shutil, sys, zipfile
from pathlib import Path
import pandas as pd

def prepare(raw, public, private):
    zipfile.ZipFile(raw / "mlsp_contest_dataset.zip").extractall(raw / "x")
    ess, sup = raw / "x/mlsp_contest_dataset/essential_data", raw / "x/mlsp_contest_dataset/supplemental_data"
    for d in ("essential_data/src_wavs", "supplemental_data/filtered_spectrograms",
              "supplemental_data/segmentation_examples", "supplemental_data/spectrograms",
              "supplemental_data/supervised_segmentation"):
        (public / d).mkdir(parents=True)
    folds = pd.read_csv(ess / "CVfolds_2.txt")
    folds = folds[folds["fold"] == 0].reset_index(drop=True)
    folds.loc[folds.sample(frac=0.2, random_state=0).index, "fold"] = 1
    renumber = dict(zip(folds["rec_id"], range(len(folds))))
    folds["rec_id"] = range(len(folds))
    folds.to_csv(public / "essential_data/CVfolds_2.txt", index=False)
    test_ids = set(folds.loc[folds["fold"] == 1, "rec_id"])
    names = pd.read_csv(ess / "rec_id2filename.txt")
    names = names[names["rec_id"].isin(list(renumber))].copy()
    names["rec_id"] = names["rec_id"].map(renumber)
    names.to_csv(public / "essential_data/rec_id2filename.txt", index=False)

    def rows(path):
        for line in path.read_text().splitlines()[1:]:
            head, _, rest = line.partition(",")
            if int(head) in renumber:
                yield renumber[int(head)], rest

    labels = list(rows(ess / "rec_labels_test_hidden.txt"))
    with open(public / "essential_data/rec_labels_test_hidden.txt", "w") as f:
        f.write("rec_id,[labels]\n")
        for rec, lab in labels:
            lab = "?" if rec in test_ids else lab
            f.write(f"{rec},{lab}\n" if lab else f"{rec}\n")
    answers = [(rec * 100 + s, int(str(s) in lab.split(","))) for rec, lab in labels if rec in test_ids
               for s in range(19)]
    pd.DataFrame(answers, columns=["Id", "Probability"]).to_csv(private / "answers.csv", index=False)
    sample = [(rec * 100 + s, 0) for rec in folds.loc[folds["fold"] == 1, "rec_id"] for s in range(19)]
    pd.DataFrame(sample, columns=["Id", "Probability"]).to_csv(public / "sample_submission.csv", index=False)
    shutil.copy(ess / "species_list.txt", public / "essential_data")
    for name in names["filename"]:
        shutil.copy(ess / f"src_wavs/{name}.wav", public / "essential_data/src_wavs")
        for d in ("filtered_spectrograms", "segmentation_examples", "spectrograms", "supervised_segmentation"):
            if (sup / d / f"{name}.bmp").exists():
                shutil.copy(sup / d / f"{name}.bmp", public / "supplemental_data" / d)
    for f in ("segment_clusters.bmp", "segment_mosaic.bmp"):
        shutil.copy(sup / f, public / "supplemental_data")
    for f in ("histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"):
        with open(public / "supplemental_data" / f, "w") as out:
            out.write("rec_id,[histogram of segment features]\n")
            for rec, rest in rows(sup / f):
                out.write(f"{rec},{rest}\n")

args = [Path(p) for p in sys.argv[1:]]
for i in range(0, len(args), 3):
    prepare(*args[i:i + 3])
)py";

TEST(MlspBirdsPrepareTest, MatchesPythonFileForFile) {
  // One Python run for all cases (importing pandas dominates its time).
  std::vector<std::string> args;
  std::vector<std::pair<testing::PreparedDirs, fs::path>> runs;
  for (const auto& [train, test, seed] :
       std::vector<std::tuple<int, int, uint64_t>>{{320, 30, 1}, {318, 0, 2}, {322, 120, 3}}) {
    const fs::path raw = MakeRaw(RawFiles(train, test, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const fs::path raw_copy = testing::NewTempDir("raw_copy");
    fs::copy(raw, raw_copy, fs::copy_options::recursive);
    args.insert(args.end(), {raw_copy.string(), (reference / "public").string(),
                             (reference / "private").string()});
    runs.emplace_back(*ours, reference);
  }
  const testing::CommandResult run = testing::RunPython(kReference, args);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const auto& [ours, reference] : runs) {
    SCOPED_TRACE(reference.string());
    EXPECT_EQ(testing::ReadTree(ours.public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours.private_dir), testing::ReadTree(reference / "private"));
    EXPECT_EQ(testing::FileNames(ours.private_dir), std::vector<std::string>{"answers.csv"});
  }
}

TEST(MlspBirdsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawFiles(320, 20, 4));
  // Upstream extracts into raw/; we do not.
  const std::optional<testing::PreparedDirs> first =
      testing::ExpectDeterministicAndRawUntouched(kId, raw);
  ASSERT_TRUE(first.has_value());
  const auto tree = testing::ReadTree(first->public_dir);
  // 64 test recordings, each with 19 pairs, and "?" labels in public/.
  EXPECT_EQ(std::count(tree.at("sample_submission.csv").begin(),
                       tree.at("sample_submission.csv").end(), '\n'),
            1 + 64 * 19);
  EXPECT_EQ(std::count(tree.at("essential_data/rec_labels_test_hidden.txt").begin(),
                       tree.at("essential_data/rec_labels_test_hidden.txt").end(), '?'),
            64);
}

absl::Status PrepareStatus(const std::map<std::string, std::string>& files) {
  return testing::RunPreparer(kId, MakeRaw(files)).status();
}

TEST(MlspBirdsPrepareTest, RunsUpstreamsChecks) {
  // Upstream insists on 64 test recordings: round(0.2 * n) for n train ones.
  EXPECT_THAT(PrepareStatus(RawFiles(317, 5, 5)).message(), HasSubstr("Expected 64 test rec_ids, got 63"));
  EXPECT_THAT(PrepareStatus(RawFiles(323, 5, 5)).message(), HasSubstr("Expected 64 test rec_ids, got 65"));
  // A recording without a file name.
  auto files = RawFiles(320, 5, 6);
  std::string& names = files[absl::StrCat(kRoot, "essential_data/rec_id2filename.txt")];
  names = names.substr(0, names.rfind('\n', names.size() - 2) + 1);
  EXPECT_THAT(PrepareStatus(files).message(), HasSubstr("entires in rec_id2filename"));
}

TEST(MlspBirdsPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Each required file missing in turn.
  const auto files = RawFiles(320, 5, 7);
  for (const std::string missing :
       {"essential_data/CVfolds_2.txt", "essential_data/species_list.txt",
        "essential_data/rec_labels_test_hidden.txt", "supplemental_data/segment_mosaic.bmp",
        "supplemental_data/segment_features.txt"}) {
    auto without = files;
    without.erase(kRoot + missing);
    EXPECT_FALSE(PrepareStatus(without).ok()) << missing;
  }
  auto without_wav = files;
  for (auto it = without_wav.begin(); it != without_wav.end(); ++it) {
    if (it->first.find("src_wavs/") != std::string::npos) {
      without_wav.erase(it);
      break;
    }
  }
  EXPECT_THAT(PrepareStatus(without_wav).message(), HasSubstr(".wav"));
  // A line that does not start with an integer rec_id.
  auto bad_line = files;
  bad_line[absl::StrCat(kRoot, "supplemental_data/segment_rectangles.txt")] += "x,1,2\n";
  EXPECT_THAT(PrepareStatus(bad_line).message(), HasSubstr("does not start with a rec_id"));
  // A file name that is not a plain name.
  auto bad_name = files;
  std::string& names = bad_name[absl::StrCat(kRoot, "essential_data/rec_id2filename.txt")];
  names.replace(names.find("PC"), 2, "../PC");
  EXPECT_THAT(PrepareStatus(bad_name).message(), HasSubstr("not a plain file name"));
}

}  // namespace
}  // namespace mlebench::prepare_test
