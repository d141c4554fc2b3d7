#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawCase {
  std::string id;  // five digits, zero-padded
  int label;
};

std::vector<RawCase> RandomCases(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawCase> cases;
  int next = 0;
  for (int i = 0; i < count; ++i) {
    next += 1 + static_cast<int>(rng.UniformInt(3));
    cases.push_back({absl::StrFormat("%05d", next), rng.Bernoulli(0.5) ? 1 : 0});
  }
  return cases;
}

// Kaggle's layout: train_labels.csv and train/<id>/<series>/Image-<n>.dcm.
// The file contents only need to be recognisable here.
fs::path MakeRaw(const std::vector<RawCase>& cases) {
  const fs::path raw = testing::NewTempDir("raw");
  std::string csv = "BraTS21ID,MGMT_value\n";
  for (const RawCase& c : cases) {
    csv += absl::StrCat(c.id, ",", c.label, "\n");
    for (const char* series : {"FLAIR", "T1w"}) {
      fs::create_directories(raw / "train" / c.id / series);
      for (int n = 1; n <= 2; ++n) {
        EXPECT_TRUE(WriteStringToFile(raw / "train" / c.id / series / absl::StrCat("Image-", n, ".dcm"),
                                      absl::StrCat("DICM ", c.id, series, n))
                        .ok());
      }
    }
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_labels.csv", csv).ok());
  return raw;
}

std::vector<std::string> Ids(const fs::path& csv) {
  CsvReadOptions options;
  options.string_columns = {"BraTS21ID"};
  absl::StatusOr<Table> table = ReadCsvFile(csv.string(), options);
  EXPECT_TRUE(table.ok()) << table.status();
  std::vector<std::string> ids;
  if (!table.ok()) return ids;
  for (const Cell& cell : table->Find("BraTS21ID")->cells) ids.push_back(std::get<std::string>(cell));
  return ids;
}

TEST(RsnaMiccaiPrepareTest, SplitsLabelsAndCopiesCaseFolders) {
  const std::vector<RawCase> cases = RandomCases(50, 1);
  const fs::path raw = MakeRaw(cases);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train_labels.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("BraTS21ID", "MGMT_value"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("BraTS21ID", "MGMT_value"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("BraTS21ID", "MGMT_value"));
  EXPECT_EQ(answers.num_rows(), 5u);  // ceil(0.1 * 50)
  EXPECT_EQ(train.num_rows(), 45u);
  for (const Cell& p : sample.Find("MGMT_value")->cells) EXPECT_EQ(p, Cell(0.5));

  const std::vector<std::string> train_ids = Ids(dirs->public_dir / "train_labels.csv");
  const std::vector<std::string> test_ids = Ids(dirs->private_dir / "test.csv");
  EXPECT_EQ(Ids(dirs->public_dir / "sample_submission.csv"), test_ids);
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(50, options);
  ASSERT_TRUE(split.ok());
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(train_ids[i], cases[split->train_indices[i]].id);  // padding kept
    EXPECT_EQ(train.Find("MGMT_value")->cells[i], Cell(int64_t{cases[split->train_indices[i]].label}));
  }
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    EXPECT_EQ(test_ids[i], cases[split->test_indices[i]].id);
  }

  // Every case folder, whole, under its split.
  const auto raw_tree = testing::ReadTree(raw / "train");
  std::map<std::string, std::string> expected_train, expected_test;
  for (const auto& [name, bytes] : raw_tree) {
    const std::string id = name.substr(0, name.find('/'));
    const bool in_test = std::find(test_ids.begin(), test_ids.end(), id) != test_ids.end();
    (in_test ? expected_test : expected_train)[name] = bytes;
  }
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train"), expected_train);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "test"), expected_test);
  EXPECT_EQ(expected_test.size(), 5u * 4);
}

TEST(RsnaMiccaiPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomCases(30, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
old = pd.read_csv(f"{raw}/train_labels.csv", dtype={"BraTS21ID": str, "MGMT_value": int})
train, test = train_test_split(old, test_size=0.1, random_state=0)
sample = test.copy()
sample["MGMT_value"] = 0.5
train.to_csv(f"{public}/train_labels.csv", index=False)
test.to_csv(f"{private}/test.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(RsnaMiccaiPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 10}, {11, 11}, {585, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomCases(rows, seed));
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

TEST(RsnaMiccaiPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  // A labelled case without its folder.
  const std::vector<RawCase> cases = RandomCases(20, 3);
  const fs::path missing = MakeRaw(cases);
  fs::remove_all(missing / "train" / cases[7].id);
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr("no case folder train/" + cases[7].id));
  // Labels pandas' dtype=int rejects.
  for (const std::string bad : {"", "0.5", "yes"}) {
    const fs::path raw = MakeRaw(RandomCases(10, 4));
    ASSERT_TRUE(WriteStringToFile(raw / "train_labels.csv",
                                  "BraTS21ID,MGMT_value\n00001,1\n00002," + bad + "\n").ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("MGMT_value must be an integer")) << bad;
  }
  // No id column.
  const fs::path no_id = MakeRaw(RandomCases(10, 5));
  ASSERT_TRUE(WriteStringToFile(no_id / "train_labels.csv", "id,MGMT_value\n00001,1\n").ok());
  EXPECT_FALSE(PrepareStatus(no_id).ok());
  // A repeated id: fewer folders than rows, upstream's count check.
  std::vector<RawCase> repeated = RandomCases(20, 6);
  for (RawCase& c : repeated) c.id = repeated[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(repeated)).message(),
              HasSubstr("should have the same number of images"));
  // Ids that are not plain folder names never reach the file system.
  for (const std::string bad_id : {"../x", "a/b", ".."}) {
    const fs::path raw = MakeRaw(RandomCases(3, 7));
    ASSERT_TRUE(WriteStringToFile(raw / "train_labels.csv",
                                  "BraTS21ID,MGMT_value\n" + bad_id + ",1\n" + bad_id + ",0\n").ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be a case folder name")) << bad_id;
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
