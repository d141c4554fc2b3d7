#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's layout with `studies` studies in random order, boxes for about
// a third, segmentations for about a third (overlapping), two slice files
// per study with recognisable bytes.
fs::path MakeRaw(int studies, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  std::string train = "StudyInstanceUID,patient_overall,C1,C2,C3,C4,C5,C6,C7\n";
  std::string boxes = "StudyInstanceUID,x,y,width,height,slice_number\n";
  std::set<int64_t> used;
  fs::create_directories(raw / "segmentations");
  for (int s = 0; s < studies; ++s) {
    int64_t number;
    do {
      number = rng.UniformInt(int64_t{1}, int64_t{40000});
    } while (!used.insert(number).second);
    const std::string uid = absl::StrCat("1.2.826.0.1.3680043.", number);
    std::string labels;
    int any = 0;
    for (int v = 0; v < 7; ++v) {
      const int f = rng.Bernoulli(0.2);
      any |= f;
      absl::StrAppend(&labels, ",", f);
    }
    absl::StrAppend(&train, uid, ",", any, labels, "\n");
    if (rng.Bernoulli(0.35)) {
      for (int n = 0; n < 2; ++n) absl::StrAppend(&boxes, uid, ",1", n, ".5,20.25,30.0,40.0,", 5 + n, "\n");
    }
    if (rng.Bernoulli(0.35)) {
      EXPECT_TRUE(WriteStringToFile(raw / "segmentations" / (uid + ".nii"), "NII " + uid).ok());
    }
    fs::create_directories(raw / "train_images" / uid);
    for (int n = 1; n <= 2; ++n) {
      EXPECT_TRUE(WriteStringToFile(raw / "train_images" / uid / absl::StrCat(n, ".dcm"),
                                    absl::StrCat("DICM ", uid, " ", n)).ok());
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train_bounding_boxes.csv", boxes).ok());
  return raw;
}

TEST(RsnaCervicalPrepareTest, SplitsStudiesAndCopiesFiles) {
  const fs::path raw = MakeRaw(100, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.num_rows(), 10u);
  EXPECT_EQ(answers.num_rows(), 90u * 8);
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("StudyInstanceUID", "prediction_type", "fractured", "row_id"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("StudyInstanceUID", "prediction_type", "row_id"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("row_id", "fractured"));
  for (const Cell& p : sample.Find("fractured")->cells) EXPECT_EQ(p, Cell(0.5));
  std::set<std::string> train_ids, test_ids;
  for (const Cell& c : train.Find("StudyInstanceUID")->cells) train_ids.insert(std::get<std::string>(c));
  for (const Cell& c : test.Find("StudyInstanceUID")->cells) test_ids.insert(std::get<std::string>(c));
  EXPECT_EQ(test_ids.size(), 90u);
  for (const std::string& id : train_ids) EXPECT_FALSE(test_ids.count(id)) << id;
  // Study folders under their split, whole.
  std::map<std::string, std::string> expected_train, expected_test;
  for (const auto& [name, bytes] : testing::ReadTree(raw / "train_images")) {
    (test_ids.count(name.substr(0, name.find('/'))) ? expected_test : expected_train)[name] = bytes;
  }
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train_images"), expected_train);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "test_images"), expected_test);
  // Segmentations copied only for train studies.
  for (const auto& [name, bytes] : testing::ReadTree(dirs->public_dir / "segmentations")) {
    EXPECT_TRUE(train_ids.count(name.substr(0, name.size() - 4))) << name;
  }
}

TEST(RsnaCervicalPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(60, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas and random.
constexpr char kReference[] = R"py(
import random, sys
from pathlib import Path
import pandas as pd

raw, public, private = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
rng = random.Random(0)
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
n_train = round(len(old) * 0.1)
bb = pd.read_csv(raw / "train_bounding_boxes.csv", float_precision="round_trip")
bb_ids = sorted(bb["StudyInstanceUID"].unique())
seg_ids = sorted(p.stem for p in (raw / "segmentations").glob("*.nii"))
overlap = [u for u in bb_ids if u in seg_ids]
chosen = rng.sample(overlap, round(len(overlap) * 0.1))
bbox_chosen = list(chosen)
more = rng.sample([u for u in seg_ids if u not in overlap], round(len(seg_ids) * 0.1) - len(chosen))
ids = chosen + more
more = rng.sample([u for u in bb_ids if u not in overlap], round(len(bb_ids) * 0.1) - len(chosen))
ids += more
bbox_chosen += more
ids += rng.sample([u for u in old["StudyInstanceUID"] if u not in ids], n_train - len(ids))
old[old["StudyInstanceUID"].isin(ids)].to_csv(f"{public}/train.csv", index=False)
bb[bb["StudyInstanceUID"].isin(bbox_chosen)].to_csv(f"{public}/train_bounding_boxes.csv", index=False)
ans = old[~old["StudyInstanceUID"].isin(ids)].melt(
    id_vars="StudyInstanceUID", var_name="prediction_type", value_name="fractured")
ans["row_id"] = ans["StudyInstanceUID"] + "_" + ans["prediction_type"]
ans.to_csv(f"{private}/answers.csv", index=False)
sub = ans[["row_id", "fractured"]].copy()
sub["fractured"] = 0.5
sub.to_csv(f"{public}/sample_submission.csv", index=False)
ans.drop(columns=["fractured"]).to_csv(f"{public}/test.csv", index=False)
)py";

TEST(RsnaCervicalPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [studies, seed] : std::vector<std::pair<int, uint64_t>>{{30, 10}, {77, 11}, {2019, 12}}) {
    SCOPED_TRACE(studies);
    const fs::path raw = MakeRaw(studies, seed);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> public_csvs;
    for (const auto& [name, bytes] : testing::ReadTree(ours->public_dir)) {
      if (name.find('/') == std::string::npos) public_csvs[name] = bytes;
    }
    EXPECT_EQ(public_csvs, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(RsnaCervicalPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_boxes = MakeRaw(30, 3);
  fs::remove(no_boxes / "train_bounding_boxes.csv");
  EXPECT_FALSE(PrepareStatus(no_boxes).ok());
  const fs::path no_segmentations = MakeRaw(30, 4);
  fs::remove_all(no_segmentations / "segmentations");
  EXPECT_FALSE(PrepareStatus(no_segmentations).ok());
  // A listed study without its folder.
  const fs::path missing = MakeRaw(30, 5);
  const std::string first = testing::ReadTree(missing / "train_images").begin()->first;
  fs::remove_all(missing / "train_images" / first.substr(0, first.find('/')));
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr("raw data has no folder "));
  // A repeated study: upstream's length check.
  const fs::path repeated = MakeRaw(30, 6);
  std::string csv = *ReadFileToString(repeated / "train.csv");
  csv += csv.substr(csv.find('\n') + 1, csv.find('\n', csv.find('\n') + 1) - csv.find('\n'));
  ASSERT_TRUE(WriteStringToFile(repeated / "train.csv", csv).ok());
  EXPECT_THAT(PrepareStatus(repeated).message(), HasSubstr("check failed"));
  // An extra label column breaks upstream's column checks.
  const fs::path extra = MakeRaw(30, 7);
  ASSERT_TRUE(WriteStringToFile(extra / "train.csv",
                                "StudyInstanceUID,patient_overall,C1,C2,C3,C4,C5,C6,C7,C8\n"
                                "1.2.3,0,0,0,0,0,0,0,0,0\n").ok());
  EXPECT_FALSE(PrepareStatus(extra).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
