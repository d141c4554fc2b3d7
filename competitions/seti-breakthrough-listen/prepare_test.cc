#include <filesystem>
#include <map>
#include <string>
#include <tuple>
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

struct RawSnippet {
  std::string id;  // 15 hex digits
  int64_t target;
  std::string bytes;
};

std::vector<RawSnippet> RandomSnippets(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<RawSnippet> snippets;
  for (int i = 0; i < count; ++i) {
    snippets.push_back({rng.Hex(15), rng.Bernoulli(0.1) ? 1 : 0, "NUMPY" + rng.Hex(20)});
  }
  return snippets;
}

// Kaggle's layout: train_labels.csv (id, target), train/<id[0]>/<id>.npy and
// old_leaky_data/ (two files here).
fs::path MakeRaw(const std::vector<RawSnippet>& snippets) {
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "old_leaky_data" / "train_old" / "3");
  EXPECT_TRUE(
      WriteStringToFile(raw / "old_leaky_data" / "train_labels_old.csv", "id,target\n").ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "old_leaky_data" / "train_old" / "3" / "3ab.npy", "old").ok());
  CsvTextBuilder csv;
  csv.Row({"id", "target"});
  for (const RawSnippet& snippet : snippets) {
    csv.String(snippet.id).Int(snippet.target).EndRow();
    fs::create_directories(raw / "train" / snippet.id.substr(0, 1));
    EXPECT_TRUE(WriteStringToFile(raw / "train" / snippet.id.substr(0, 1) / (snippet.id + ".npy"),
                                  snippet.bytes)
                    .ok());
  }
  EXPECT_TRUE(WriteStringToFile(raw / "train_labels.csv", csv.text()).ok());
  return raw;
}

std::vector<std::string> Ids(const Table& table) {
  std::vector<std::string> ids;
  for (const Cell& cell : table.Find("id")->cells) ids.push_back(std::get<std::string>(cell));
  return ids;
}

TEST(SetiPrepareTest, SplitsLabelsAndSnippets) {
  const std::vector<RawSnippet> snippets = RandomSnippets(100, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(snippets));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train_labels.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "target"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "target"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "target"));
  EXPECT_EQ(answers.num_rows(), 10u);
  EXPECT_EQ(train.num_rows(), 90u);
  EXPECT_EQ(Ids(sample), Ids(answers));
  for (const Cell& p : sample.Find("target")->cells) EXPECT_EQ(p, Cell(0.5));

  // Rows in train_test_split order; every snippet copied under its folder.
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(100, options);
  ASSERT_TRUE(split.ok());
  std::map<std::string, std::string> expected_files = {
      {"old_leaky_data/train_labels_old.csv", "id,target\n"},
      {"old_leaky_data/train_old/3/3ab.npy", "old"}};
  std::vector<std::string> expected_train, expected_test;
  for (int64_t i : split->train_indices) {
    expected_train.push_back(snippets[i].id);
    expected_files["train/" + snippets[i].id.substr(0, 1) + "/" + snippets[i].id + ".npy"] =
        snippets[i].bytes;
  }
  for (int64_t i : split->test_indices) {
    expected_test.push_back(snippets[i].id);
    expected_files["test/" + snippets[i].id.substr(0, 1) + "/" + snippets[i].id + ".npy"] =
        snippets[i].bytes;
  }
  EXPECT_EQ(Ids(train), expected_train);
  EXPECT_EQ(Ids(answers), expected_test);
  std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  public_files.erase("train_labels.csv");
  public_files.erase("sample_submission.csv");
  EXPECT_EQ(public_files, expected_files);
}

TEST(SetiPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomSnippets(40, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The CSV half of upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
old_train = pd.read_csv(f"{raw}/train_labels.csv", float_precision="round_trip")
new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
new_train.to_csv(f"{public}/train_labels.csv", index=False)
new_test.to_csv(f"{private}/test.csv", index=False)
sample = new_test.copy()
sample["target"] = 0.5
sample.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

TEST(SetiPrepareTest, CsvFilesMatchPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {251, 11}, {1500, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RandomSnippets(rows, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    for (const char* name : {"train_labels.csv", "sample_submission.csv"}) {
      EXPECT_EQ(*ReadFileToString(ours->public_dir / name),
                *ReadFileToString(reference / "public" / name))
          << name;
    }
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(SetiPrepareTest, RunsUpstreamsChecks) {
  std::vector<RawSnippet> snippets = RandomSnippets(30, 4);
  for (RawSnippet& snippet : snippets) snippet.id = snippets[0].id;
  EXPECT_THAT(PrepareStatus(MakeRaw(snippets)).message(), HasSubstr("overlapping IDs"));
  // One row: scikit-learn leaves no train rows.
  EXPECT_FALSE(PrepareStatus(MakeRaw(RandomSnippets(1, 5))).ok());
}

TEST(SetiPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const std::vector<RawSnippet> snippets = RandomSnippets(20, 7);
  const fs::path no_leaky = MakeRaw(snippets);
  fs::remove_all(no_leaky / "old_leaky_data");
  EXPECT_THAT(PrepareStatus(no_leaky).message(), HasSubstr("old_leaky_data"));
  const fs::path missing = MakeRaw(snippets);
  const std::string& id = snippets[5].id;
  fs::remove(missing / "train" / id.substr(0, 1) / (id + ".npy"));
  EXPECT_THAT(PrepareStatus(missing).message(), HasSubstr(id + ".npy"));
  // Ids that are not file names (or not text) never reach the file system.
  for (const std::string csv : {"id,target\na,1\n../b,0\nc,1\n", "id,target\na,1\n..,0\nc,1\n",
                                "id,target\n1,1\n2,0\n3,1\n"}) {
    SCOPED_TRACE(csv);
    const fs::path raw = MakeRaw(snippets);
    ASSERT_TRUE(WriteStringToFile(raw / "train_labels.csv", csv).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must be a file name"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
