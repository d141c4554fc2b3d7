#include <filesystem>
#include <map>
#include <set>
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
const std::vector<std::string> kLabels = {
    "ETT - Abnormal", "ETT - Borderline", "ETT - Normal", "NGT - Abnormal",
    "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal", "CVC - Abnormal",
    "CVC - Borderline", "CVC - Normal", "Swan Ganz Catheter Present"};

struct RawStudy {
  std::string uid;
  std::vector<int> labels;  // one per kLabels
  std::string patient;
  std::string bytes;
};

std::vector<RawStudy> RandomStudies(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawStudy> studies;
  for (int i = 0; i < count; ++i) {
    RawStudy study{"1.2.826.0.1.3680043.8.498." + std::to_string(rng.UniformInt(1, 1'000'000'000)),
                   {}, rng.Hex(9), "JPEG" + rng.Hex(40)};
    for (size_t k = 0; k < kLabels.size(); ++k) study.labels.push_back(rng.Bernoulli(0.3));
    studies.push_back(study);
  }
  return studies;
}

// Kaggle's layout: train.csv, train_annotations.csv (about one annotation
// per study, some studies with none, others with two, in shuffled order)
// and train/<uid>.jpg.
fs::path MakeRaw(const std::vector<RawStudy>& studies, uint64_t seed = 0) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder train;
  train.String("StudyInstanceUID");
  for (const std::string& name : kLabels) train.String(name);
  train.String("PatientID").EndRow();
  for (const RawStudy& study : studies) {
    train.String(study.uid);
    for (int label : study.labels) train.Int(label);
    train.String(study.patient).EndRow();
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (study.uid + ".jpg"), study.bytes).ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train.text()).ok());
  SyntheticRng rng(seed);
  CsvTextBuilder annotations;
  annotations.Row({"StudyInstanceUID", "label", "data"});
  for (size_t i = 0; i < studies.size(); ++i) {
    const RawStudy& study = rng.Choice(studies);
    annotations.String(study.uid).String(rng.Choice(kLabels));
    annotations.String("[[" + std::to_string(rng.UniformInt(0, 3000)) + ", 1279], [1477, 1168]]");
    annotations.EndRow();
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_annotations.csv", annotations.text()).ok());
  return raw;
}

TEST(RanzcrPrepareTest, SplitsAndCopies) {
  const std::vector<RawStudy> studies = RandomStudies(50, 1);
  const fs::path raw = MakeRaw(studies);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_THAT(testing::ReadTree(dirs->private_dir), ElementsAre(::testing::Key("test.csv")));
  EXPECT_EQ(public_files.size(), 3u + 50u);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table annotations = testing::ReadCsvOrFail(dirs->public_dir / "train_annotations.csv");
  std::vector<std::string> all_columns = {"StudyInstanceUID"};
  all_columns.insert(all_columns.end(), kLabels.begin(), kLabels.end());
  all_columns.push_back("PatientID");
  EXPECT_EQ(train.ColumnNames(), all_columns);
  EXPECT_EQ(answers.ColumnNames(), all_columns);
  std::vector<std::string> sample_columns(all_columns.begin(), all_columns.begin() + 10);
  EXPECT_EQ(sample.ColumnNames(), sample_columns);
  EXPECT_THAT(annotations.ColumnNames(), ElementsAre("StudyInstanceUID", "label", "data"));
  ASSERT_EQ(train.num_rows(), 45u);
  ASSERT_EQ(answers.num_rows(), 5u);  // ceil(0.1 * 50)
  ASSERT_EQ(sample.num_rows(), 5u);

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  std::set<std::string> train_uids;
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    const RawStudy& study = studies[split->train_indices[i]];
    train_uids.insert(study.uid);
    EXPECT_EQ(train.Find("StudyInstanceUID")->cells[i], Cell(study.uid));
    EXPECT_EQ(public_files.at("train/" + study.uid + ".jpg"), study.bytes);
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const RawStudy& study = studies[split->test_indices[i]];
    EXPECT_FALSE(train_uids.contains(study.uid));
    EXPECT_EQ(answers.Find("StudyInstanceUID")->cells[i], Cell(study.uid));
    EXPECT_EQ(sample.Find("StudyInstanceUID")->cells[i], Cell(study.uid));
    for (size_t k = 0; k < kLabels.size(); ++k) {
      EXPECT_EQ(answers.Find(kLabels[k])->cells[i], Cell(int64_t{study.labels[k]}));
      if (k < 9) {
        EXPECT_EQ(sample.Find(kLabels[k])->cells[i], Cell(int64_t{0}));
      }
    }
    EXPECT_EQ(public_files.at("test/" + study.uid + ".jpg"), study.bytes);
  }
  for (const Cell& uid : annotations.Find("StudyInstanceUID")->cells) {
    EXPECT_TRUE(train_uids.contains(std::get<std::string>(uid)));
  }
}

TEST(RanzcrPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomStudies(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn, images included.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
classes = ["ETT - Abnormal", "ETT - Borderline", "ETT - Normal", "NGT - Abnormal",
           "NGT - Borderline", "NGT - Incompletely Imaged", "NGT - Normal", "CVC - Abnormal",
           "CVC - Borderline"]
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train, test = train_test_split(old_train, test_size=0.1, random_state=0)
annotations = pd.read_csv(raw / "train_annotations.csv", float_precision="round_trip")
annotations = annotations[annotations["StudyInstanceUID"].isin(train["StudyInstanceUID"])]
for split, frame in (("train", train), ("test", test)):
    (public / split).mkdir()
    for uid in frame["StudyInstanceUID"]:
        shutil.copyfile(raw / "train" / f"{uid}.jpg", public / split / f"{uid}.jpg")
sample = test[["StudyInstanceUID"] + classes].copy()
sample[classes] = 0
train.to_csv(public / "train.csv", index=False)
annotations.to_csv(public / "train_annotations.csv", index=False)
test.to_csv(private / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(RanzcrPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [count, seed] : {std::pair{2, 10}, std::pair{97, 11}, std::pair{400, 12}}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(RandomStudies(count, seed), seed);
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

TEST(RanzcrPrepareTest, RunsUpstreamsChecks) {
  // A study listed twice leaves fewer images than rows (upstream's assert).
  std::vector<RawStudy> studies = RandomStudies(40, 3);
  for (RawStudy& study : studies) study.uid = studies[0].uid;
  EXPECT_THAT(PrepareStatus(MakeRaw(studies)).message(), HasSubstr("files in public train"));
}

TEST(RanzcrPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw(RandomStudies(10, 6));
  fs::remove(raw / "train" / (RandomStudies(10, 6)[3].uid + ".jpg"));
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomStudies(10, 6));
  fs::remove(raw / "train_annotations.csv");
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomStudies(10, 6));
  ASSERT_TRUE(WriteStringToFile(raw / "train_annotations.csv", "uid,label\n1.2,x\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  raw = MakeRaw(RandomStudies(10, 6));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "StudyInstanceUID,PatientID\n1.2.3,ab\n"
                                                   "1.2.4,cd\n1.2.5,ef\n").ok());
  for (const char* uid : {"1.2.3", "1.2.4", "1.2.5"}) {
    ASSERT_TRUE(WriteStringToFile(raw / "train" / (std::string(uid) + ".jpg"), "JPEG").ok());
  }
  EXPECT_FALSE(PrepareStatus(raw).ok());  // no class columns
  // Ids that are not text naming a file in train/ never reach the file system.
  for (const std::string bad : {"../../escape", "1.2/x", "", "7"}) {
    SCOPED_TRACE(bad);
    raw = MakeRaw(RandomStudies(10, 7));
    std::string csv = "StudyInstanceUID,ETT - Abnormal,ETT - Borderline,ETT - Normal,"
                      "NGT - Abnormal,NGT - Borderline,NGT - Incompletely Imaged,NGT - Normal,"
                      "CVC - Abnormal,CVC - Borderline,CVC - Normal,Swan Ganz Catheter Present,"
                      "PatientID\n";
    for (int i = 0; i < 10; ++i) {
      csv += (i == 4 ? bad : "1.2.3." + std::to_string(i)) + ",1,0,0,0,0,0,0,0,0,0,0,ab\n";
    }
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
