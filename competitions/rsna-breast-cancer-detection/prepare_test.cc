#include <algorithm>
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
constexpr char kHeader[] =
    "site_id,patient_id,image_id,laterality,view,age,cancer,biopsy,invasive,BIRADS,implant,"
    "density,machine_id,difficult_negative_case\n";

// Kaggle's train.csv (patients in random order, two or three views per
// breast, some ages and densities blank) and train_images/<p>/<i>.dcm with
// recognisable contents. Returns the raw folder.
fs::path MakeRaw(int patients, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  std::string csv = kHeader;
  int64_t image_id = 1000;
  std::set<int64_t> used;
  for (int p = 0; p < patients; ++p) {
    int64_t patient;
    do {
      patient = rng.UniformInt(int64_t{1}, int64_t{65000});
    } while (!used.insert(patient).second);
    fs::create_directories(raw / "train_images" / absl::StrCat(patient));
    const std::string age = rng.Bernoulli(0.1) ? "" : absl::StrCat(rng.UniformInt(int64_t{38}, int64_t{89}), ".0");
    for (const char* side : {"L", "R"}) {
      const int cancer = rng.Bernoulli(0.3);
      for (int v = 0; v < 2 + static_cast<int>(rng.Bernoulli(0.2)); ++v) {
        image_id += rng.UniformInt(int64_t{1}, int64_t{100000});
        absl::StrAppend(&csv, 1 + rng.UniformInt(2), ",", patient, ",", image_id, ",", side, ",",
                        v % 2 ? "MLO" : "CC", ",", age, ",", cancer, ",", cancer, ",0,", 
                        rng.Bernoulli(0.5) ? "" : "1.0", ",0,", rng.Bernoulli(0.5) ? "B" : "",
                        ",49,", cancer ? "False" : "True", "\n");
        EXPECT_TRUE(WriteStringToFile(raw / "train_images" / absl::StrCat(patient) /
                                          absl::StrCat(image_id, ".dcm"),
                                      absl::StrCat("DICM ", patient, "/", image_id))
                        .ok());
      }
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  return raw;
}

TEST(RsnaBreastCancerPrepareTest, SplitsByPatientAndCopiesImages) {
  const fs::path raw = MakeRaw(60, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));
  const Table old_train = testing::ReadCsvOrFail(raw / "train.csv");
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), old_train.ColumnNames());
  EXPECT_THAT(test.ColumnNames(), ElementsAre("site_id", "patient_id", "image_id", "laterality",
                                              "view", "age", "implant", "machine_id",
                                              "prediction_id"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("prediction_id", "cancer"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("prediction_id", "cancer"));
  EXPECT_EQ(train.num_rows() + test.num_rows(), old_train.num_rows());

  std::set<int64_t> train_patients, test_patients;
  for (const Cell& c : train.Find("patient_id")->cells) train_patients.insert(std::get<int64_t>(c));
  for (const Cell& c : test.Find("patient_id")->cells) test_patients.insert(std::get<int64_t>(c));
  EXPECT_EQ(test_patients.size(), 6u);  // ceil(0.1 * 60)
  for (int64_t p : test_patients) EXPECT_FALSE(train_patients.count(p)) << p;
  // One answer per breast, sorted by id; the sample lists the same ids.
  EXPECT_EQ(answers.num_rows(), 2 * test_patients.size());
  EXPECT_EQ(answers.Find("prediction_id")->cells, sample.Find("prediction_id")->cells);
  EXPECT_TRUE(std::is_sorted(answers.Find("prediction_id")->cells.begin(),
                             answers.Find("prediction_id")->cells.end()));

  // Every image under its split, byte for byte.
  std::map<std::string, std::string> expected_train, expected_test;
  for (const auto& [name, bytes] : testing::ReadTree(raw / "train_images")) {
    const int64_t patient = std::stoll(name.substr(0, name.find('/')));
    (test_patients.count(patient) ? expected_test : expected_train)[name] = bytes;
  }
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train_images"), expected_train);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "test_images"), expected_test);
  EXPECT_EQ(expected_test.size(), test.num_rows());
}

TEST(RsnaBreastCancerPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(30, 2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
old = pd.read_csv(f"{raw}/train.csv", float_precision="round_trip")
train_p, test_p = train_test_split(old["patient_id"].unique(), test_size=0.1, random_state=42)
new_train = old[old["patient_id"].isin(set(train_p))].copy()
cols = ["site_id", "patient_id", "image_id", "laterality", "view", "age", "implant", "machine_id"]
answers = old[old["patient_id"].isin(set(test_p))][cols + ["cancer"]].copy()
new_train.to_csv(f"{public}/train.csv", index=False)
answers["prediction_id"] = answers["patient_id"].astype(str) + "_" + answers["laterality"]
answers.drop(columns=["cancer"]).to_csv(f"{public}/test.csv", index=False)
answers = answers[["prediction_id", "cancer"]].copy().groupby("prediction_id").first().reset_index()
answers.to_csv(f"{private}/answers.csv", index=False)
answers["cancer"] = new_train.cancer.mean()
answers.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(RsnaBreastCancerPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [patients, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {11, 11}, {97, 12}, {400, 13}}) {
    SCOPED_TRACE(patients);
    const fs::path raw = MakeRaw(patients, seed);
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

TEST(RsnaBreastCancerPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // An image listed in train.csv but absent.
  const fs::path missing = MakeRaw(20, 3);
  const auto tree = testing::ReadTree(missing / "train_images");
  fs::remove(missing / "train_images" / tree.begin()->first);
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr("no file train_images/"));
  // A required column absent.
  const fs::path no_laterality = MakeRaw(10, 4);
  ASSERT_TRUE(WriteStringToFile(no_laterality / "train.csv", "patient_id,image_id,cancer\n1,2,0\n").ok());
  EXPECT_FALSE(PrepareStatus(no_laterality).ok());
  // One image per breast: nothing merges, upstream's row-count assert fails.
  std::string single = kHeader;
  const fs::path one_view = testing::NewTempDir("one_view");
  for (int p = 1; p <= 20; ++p) {
    for (const char* side : {"L", "R"}) {
      const int image = p * 10 + (side[0] == 'L');
      fs::create_directories(one_view / "train_images" / absl::StrCat(p));
      absl::StrAppend(&single, "1,", p, ",", image, ",", side, ",CC,50.0,0,0,0,,0,B,49,False\n");
      ASSERT_TRUE(WriteStringToFile(one_view / "train_images" / absl::StrCat(p) /
                                        absl::StrCat(image, ".dcm"), "DICM").ok());
    }
  }
  ASSERT_TRUE(WriteStringToFile(one_view / "train.csv", single).ok());
  EXPECT_THAT(PrepareStatus(one_view).message(), HasSubstr("different number of rows"));
  // Ids that are not plain names never reach the file system.
  const fs::path bad_id = testing::NewTempDir("bad_id");
  ASSERT_TRUE(WriteStringToFile(bad_id / "train.csv",
                                std::string(kHeader) + "1,../x,5,L,CC,50.0,0,0,0,,0,B,49,False\n")
                  .ok());
  EXPECT_THAT(PrepareStatus(bad_id).message(), HasSubstr("is not a file name"));
  // A single patient cannot be split (scikit-learn's error).
  EXPECT_FALSE(PrepareStatus(MakeRaw(1, 5)).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
