#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
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

// Kaggle's train.csv quotes every field; texts hold commas, quotes and
// non-ASCII letters.
std::string RawTrainCsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"id", "text", "author"});
  const std::vector<std::string> words = {"the", "raven", "said,", "\"nevermore\"", "Cthulhu",
                                          "daemon", "été", "monster;", "and", "dark"};
  const std::vector<std::string> authors = {"EAP", "HPL", "MWS"};
  for (int i = 0; i < rows; ++i) {
    std::string text = "It";
    for (int w = 0; w < 3 + static_cast<int>(rng.UniformInt(12)); ++w) text += " " + rng.Choice(words);
    csv.String(absl::StrFormat("id%05d", 7 * i + 3)).String(text + ".").String(rng.Choice(authors));
    csv.EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteZip(raw / "train.zip", {ZipEntry::FromBytes("train.csv", train_csv)}).ok());
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

TEST(SpookyAuthorIdentificationPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 333;
  const std::string train_csv = RawTrainCsv(rows, 1);
  const fs::path raw = MakeRaw(train_csv);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "text", "author"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "text"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("id", "EAP", "HPL", "MWS"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "EAP", "HPL", "MWS"));
  EXPECT_EQ(test.num_rows(), 34u);  // ceil(0.1 * 333)
  EXPECT_EQ(train.num_rows(), 299u);

  // Rows in train_test_split order; answers one-hot with int 0/1.
  absl::StatusOr<Table> old_train = ReadCsvString(train_csv, "train.csv");
  ASSERT_TRUE(old_train.ok());
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell> ids = Cells(*old_train, "id");
  const std::vector<Cell> authors = Cells(*old_train, "author");
  const std::vector<Cell> texts = Cells(*old_train, "text");
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(Cells(train, "id")[i], ids[split->train_indices[i]]);
    EXPECT_EQ(Cells(train, "text")[i], texts[split->train_indices[i]]);
  }
  const std::vector<Cell> train_id_list = Cells(train, "id");
  const std::set<Cell> train_ids(train_id_list.begin(), train_id_list.end());
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const int64_t row = split->test_indices[i];
    EXPECT_EQ(Cells(test, "id")[i], ids[row]);
    EXPECT_EQ(Cells(answers, "id")[i], ids[row]);
    EXPECT_EQ(Cells(sample, "id")[i], ids[row]);
    EXPECT_EQ(train_ids.count(ids[row]), 0u);
    for (const std::string author : {"EAP", "HPL", "MWS"}) {
      EXPECT_EQ(Cells(answers, author)[i], Cell(int64_t{authors[row] == Cell(author) ? 1 : 0}));
    }
  }
  EXPECT_EQ(answers.Find("EAP")->dtype, Dtype::kInt64);
  EXPECT_EQ(Cells(sample, "EAP")[0], Cell(0.403493538995863));
  EXPECT_EQ(Cells(sample, "HPL")[0], Cell(0.287808366106543));
  EXPECT_EQ(Cells(sample, "MWS")[0], Cell(0.308698094897594));
}

TEST(SpookyAuthorIdentificationPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainCsv(120, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas and scikit-learn (the one-hot
// table built column by column rather than with df_to_one_hot's loop).
constexpr char kReference[] = R"py(
import sys, zipfile
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
with zipfile.ZipFile(f"{raw}/train.zip") as archive:
    with archive.open("train.csv") as f:
        table = pd.read_csv(f, float_precision="round_trip")
train, test = train_test_split(table, test_size=0.1, random_state=0)
answers = pd.DataFrame({"id": test["id"]})
for author in ["EAP", "HPL", "MWS"]:
    answers[author] = (test["author"] == author).astype("int64")
sample = answers.copy()
sample["EAP"] = 0.403493538995863
sample["HPL"] = 0.287808366106543
sample["MWS"] = 0.308698094897594
train.to_csv(f"{public}/train.csv", index=False)
test.drop(columns=["author"]).to_csv(f"{public}/test.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
answers.to_csv(f"{private}/test.csv", index=False)
)py";

TEST(SpookyAuthorIdentificationPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 10}, {57, 11}, {2000, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainCsv(rows, seed));
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

TEST(SpookyAuthorIdentificationPrepareTest, RejectsBadRawData) {
  // No train.zip; a zip without train.csv; a corrupt zip.
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  const fs::path no_csv = testing::NewTempDir("no_csv");
  ASSERT_TRUE(WriteZip(no_csv / "train.zip", {ZipEntry::FromBytes("other.csv", "a\n1\n")}).ok());
  EXPECT_THAT(testing::RunPreparer(kId, no_csv).status().message(), HasSubstr("no train.csv"));
  const fs::path corrupt = testing::NewTempDir("corrupt");
  ASSERT_TRUE(WriteStringToFile(corrupt / "train.zip", "not a zip").ok());
  EXPECT_FALSE(testing::RunPreparer(kId, corrupt).ok());
  // An author outside the three classes (upstream would add a column); every
  // row has one, so the test split surely does.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,text,author\na,x,Poe\nb,y,Poe\nc,z,Poe\n")).ok());
  // Missing columns.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,author\na,EAP\nb,EAP\nc,HPL\n")).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("id,text\na,x\nb,y\nc,z\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
