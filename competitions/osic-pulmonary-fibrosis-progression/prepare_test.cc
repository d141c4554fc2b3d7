#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// The synthetic raw download (competitions/osic-pulmonary-fibrosis-progression:raw).
fs::path MakeRaw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::set<std::string> Patients(const Table& table) {
  std::set<std::string> names;
  for (const Cell& cell : table.Find("Patient")->cells) names.insert(std::get<std::string>(cell));
  return names;
}

std::set<std::string> Subdirectories(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  }
  return names;
}

TEST(OsicPrepareTest, SplitsByPatient) {
  const fs::path raw = MakeRaw(1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_EQ(test.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("Patient", "Weeks", "FVC", "Percent", "Age", "Sex",
                                                 "SmokingStatus", "Patient_Week", "Confidence"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("Patient_Week", "FVC", "Confidence"));
  const std::set<std::string> test_patients = Patients(test);
  EXPECT_EQ(test_patients.size(), 8u);  // ceil(0.1 * 80)
  EXPECT_EQ(test.num_rows(), 8u);
  EXPECT_EQ(Patients(answers), test_patients);
  for (const std::string& p : Patients(train)) EXPECT_FALSE(test_patients.contains(p));
  EXPECT_EQ(answers.num_rows() % 8, 0u);
  EXPECT_EQ(sample.num_rows(), answers.num_rows());
  EXPECT_EQ(sample.Find("Patient_Week")->cells, answers.Find("Patient_Week")->cells);
  EXPECT_EQ(Subdirectories(dirs->public_dir / "test"), test_patients);
  EXPECT_EQ(Subdirectories(dirs->public_dir / "train"), Patients(train));
}

TEST(OsicPrepareTest, IsDeterministicAndLeavesRawAlone) {
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
old = pd.read_csv(raw / "train.csv", float_precision="round_trip")
train_groups, test_groups = train_test_split(list(old.groupby("Patient")), test_size=0.1,
                                             random_state=0)
train = pd.concat([g for _, g in train_groups])
test = pd.concat([g for _, g in test_groups])
public_test = test.sort_values(by="Weeks").groupby("Patient").first().reset_index()
weeks = pd.DataFrame([(p, w) for p in test["Patient"].unique()
                      for w in range(test["Weeks"].min(), test["Weeks"].max() + 1)],
                     columns=["Patient", "Weeks"])
test = weeks.merge(test, on=["Patient", "Weeks"], how="left")
test["Patient_Week"] = test["Patient"] + "_" + test["Weeks"].astype(str)
test["Confidence"] = 100
sample = test[["Patient_Week"]].copy()
sample["FVC"] = 2000
sample["Confidence"] = 100
train.to_csv(public / "train.csv", index=False)
public_test.to_csv(public / "test.csv", index=False)
test.to_csv(private / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
for split, frame in (("train", train), ("test", test)):
    for p in frame["Patient"].unique():
        shutil.copytree(raw / "train" / p, public / split / p)
)py";

TEST(OsicPrepareTest, OutputsMatchPandasByteForByte) {
  for (uint64_t seed : {3, 4}) {
    SCOPED_TRACE(seed);
    const fs::path raw = MakeRaw(seed);
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

TEST(OsicPrepareTest, RunsUpstreamsChecksAndRejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const std::string header = "Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus\n";
  std::string rows;
  for (int p = 0; p < 10; ++p) {
    for (int w = 0; w < 3; ++w) rows += absl::StrCat("P", p, ",", w * 2, ",2500,70.5,60,Male,Ex-smoker\n");
  }
  fs::path raw = MakeRaw(6);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + rows).ok());
  for (int p = 0; p < 10; ++p) {
    fs::create_directories(raw / "train" / absl::StrCat("P", p));
    ASSERT_TRUE(WriteStringToFile(raw / "train" / absl::StrCat("P", p) / "1.dcm", "x").ok());
  }
  EXPECT_TRUE(PrepareStatus(raw).ok());
  // A test patient measured twice in one week: the test patients' row
  // counts differ (upstream's check). 20 patients put 2 in the test split.
  std::string twenty;
  for (int p = 0; p < 20; ++p) {
    fs::create_directories(raw / "train" / absl::StrFormat("P%02d", p));
    ASSERT_TRUE(WriteStringToFile(raw / "train" / absl::StrFormat("P%02d", p) / "1.dcm", "x").ok());
    for (int w = 0; w < 3; ++w) {
      twenty += absl::StrFormat("P%02d,%d,2500,70.5,60,Male,Ex-smoker\n", p, w * 2);
    }
  }
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(20, options);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->test_indices.size(), 2u);
  const std::string repeat =
      absl::StrFormat("P%02d,2,2400,70.5,60,Male,Ex-smoker\n", split->test_indices[0]);
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + twenty + repeat).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("same number of rows"));
  // A missing patient directory; an extra column; non-integer weeks; bad ids.
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + rows + "Q,1,2500,70.5,60,Male,Ex-smoker\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  std::string extra;
  for (int p = 0; p < 10; ++p) extra += absl::StrCat("P", p, ",0,2500,70.5,60,Male,Ex-smoker,x\n");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "Patient,Weeks,FVC,Percent,Age,Sex,SmokingStatus,Note\n" + extra).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("columns"));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + rows + "P1,1.5,2500,70.5,60,Male,Ex-smoker\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", header + rows + "../x,1,2500,70.5,60,Male,Ex-smoker\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
