#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "competitions/google-quest-challenge/classes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using google_quest::kTargets;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

const std::vector<std::string> kTextColumns = {"question_title",
                                               "question_body",
                                               "question_user_name",
                                               "question_user_page",
                                               "answer",
                                               "answer_user_name",
                                               "answer_user_page",
                                               "url",
                                               "category",
                                               "host"};

// Kaggle's rater averages, as train.csv writes them.
const std::vector<double> kRatings = {
    0.0, 0.333333333333333, 0.5, 0.666666666666667, 0.777777777777778, 1.0};

struct Options {
  int rows = 60;
  uint64_t seed = 1;
  double spelling_rate = 0.02;  // share of rows with a question_type_spelling above 0
};

// Kaggle's train.csv: qa_id, the 10 text columns (with commas, quotes and
// line breaks), then the 30 targets.
std::string TrainCsv(const Options& options) {
  SyntheticRng rng(options.seed);
  CsvTextBuilder csv;
  std::vector<std::string> header = {"qa_id"};
  header.insert(header.end(), kTextColumns.begin(), kTextColumns.end());
  for (std::string_view t : kTargets) header.emplace_back(t);
  for (const std::string& name : header) csv.String(name);
  csv.EndRow();
  for (int r = 0; r < options.rows; ++r) {
    csv.Int(r * 3 + static_cast<int64_t>(rng.UniformInt(0, 2)));
    for (const std::string& column : kTextColumns) {
      csv.String(absl::StrCat(column, " ", rng.Hex(4),
                              rng.Bernoulli(0.3) ? ", \"quoted\"\nnext line" : ""));
    }
    for (std::string_view target : kTargets) {
      const bool spelling = target == "question_type_spelling";
      csv.Float(spelling ? (rng.Bernoulli(options.spelling_rate) ? 0.333333333333333 : 0.0)
                         : rng.Choice(kRatings));
    }
    csv.EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const Options& options) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", TrainCsv(options)).ok());
  return raw;
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(GoogleQuestPrepareTest, WritesUpstreamsFiles) {
  absl::StatusOr<testing::PreparedDirs> dirs =
      testing::RunPreparer(kId, MakeRaw({.rows = 60, .seed = 1, .spelling_rate = 0.3}));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.num_columns(), 41u);
  EXPECT_EQ(test.num_columns(), 11u);
  EXPECT_EQ(answers.num_columns(), 31u);
  EXPECT_EQ(sample.ColumnNames(), answers.ColumnNames());
  EXPECT_EQ(train.num_rows(), 54u);
  EXPECT_EQ(answers.num_rows(), 6u);  // ceil(0.1 * 60)
  EXPECT_EQ(test.Find("qa_id")->cells, answers.Find("qa_id")->cells);
  EXPECT_EQ(sample.Find("qa_id")->cells, answers.Find("qa_id")->cells);
  EXPECT_EQ(sample.Find("answer_helpful")->cells,
            (std::vector<Cell>{0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0}));
}

TEST(GoogleQuestPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw({.rows = 50, .seed = 2});
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and scikit-learn.
constexpr char kReference[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
old_train = pd.read_csv(raw / "train.csv", float_precision="round_trip")
CLASSES = list(old_train.columns[11:])
new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
swapped = new_test["question_type_spelling"].nunique() == 1
if swapped:
    label = new_train[new_train["question_type_spelling"] != 0].index[0]
    temp = new_test.iloc[0].copy()
    new_test.iloc[0] = new_train.loc[label].copy()
    new_train.loc[label] = temp
new_test_without_labels = new_test.drop(CLASSES, axis=1, inplace=False)
new_test = new_test[["qa_id"] + CLASSES]
sample = new_test.copy()
sample[CLASSES] = np.tile(np.linspace(0, 1, len(sample))[:, None], (1, len(CLASSES)))
new_test.to_csv(private / "test.csv", index=False)
new_train.to_csv(public / "train.csv", index=False)
new_test_without_labels.to_csv(public / "test.csv", index=False)
sample.to_csv(public / "sample_submission.csv", index=False)
print("swapped" if swapped else "kept")
)py";

TEST(GoogleQuestPrepareTest, OutputsMatchPandasByteForByte) {
  int swapped = 0;
  for (const Options& options : std::vector<Options>{{.rows = 60, .seed = 10, .spelling_rate = 0.3},
                                                     {.rows = 300, .seed = 11},
                                                     {.rows = 41, .seed = 12, .spelling_rate = 0.1},
                                                     {.rows = 1200, .seed = 13}}) {
    SCOPED_TRACE(options.rows);
    const fs::path raw = MakeRaw(options);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    swapped += run.output.find("swapped") != std::string::npos;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
  EXPECT_GE(swapped, 1);  // the spelling swap was exercised
}

TEST(GoogleQuestPrepareTest, RunsUpstreamsChecks) {
  // No train row to swap in: upstream's index[0] raises IndexError.
  EXPECT_THAT(PrepareStatus(MakeRaw({.rows = 40, .seed = 3, .spelling_rate = 0})).message(),
              HasSubstr("question_type_spelling"));
  // A target constant in the test rows.
  Options options{.rows = 40, .seed = 4, .spelling_rate = 0.5};
  std::string csv = TrainCsv(options);
  const fs::path raw = testing::NewTempDir("raw");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", csv).ok());
  absl::StatusOr<Table> table = ReadCsvString(csv, "train.csv");
  ASSERT_TRUE(table.ok());
  Column* column = table->FindMutable("answer_relevance");
  for (Cell& cell : column->cells) cell = 1.0;
  ASSERT_TRUE(WriteCsvFile(*table, (raw / "train.csv").string()).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("answer_relevance should not be constant"));
  // Other column counts.
  table = ReadCsvString(csv, "train.csv");
  table->mutable_columns().pop_back();
  table->mutable_columns().erase(table->mutable_columns().begin() + 1);
  ASSERT_TRUE(WriteCsvFile(*table, (raw / "train.csv").string()).ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
  table = ReadCsvString(csv, "train.csv");
  table->mutable_columns().erase(table->mutable_columns().begin() + 1);
  ASSERT_TRUE(WriteCsvFile(*table, (raw / "train.csv").string()).ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("11 columns"));
}

TEST(GoogleQuestPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path raw = testing::NewTempDir("raw");
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "qa_id,answer\n1,a\n2,b\n").ok());
  EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("no column"));
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", "\"unterminated\n").ok());
  EXPECT_FALSE(PrepareStatus(raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
