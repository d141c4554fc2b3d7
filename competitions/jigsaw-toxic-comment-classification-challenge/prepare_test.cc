#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
const std::vector<std::string> kClasses = {"toxic",  "severe_toxic", "obscene",
                                           "threat", "insult",       "identity_hate"};

// The four CSVs of a raw download, as text.
struct RawCsvs {
  std::string train, test, test_labels, sample_submission;
};

// Kaggle's layout: train.csv and test.csv quote every string; comments hold
// commas, doubled quotes, newlines and non-ASCII letters. About half of the
// test rows are unscored (-1 labels).
RawCsvs MakeCsvs(int train_rows, int test_rows, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> words = {"zorp", "blen,", "\"quoted\"", "wiki", "\n\nnext",
                                          "été",  "fimbo", "grak!",      "ok",   "talk:"};
  auto comment = [&] {
    std::string text = "Hey";
    for (int w = 0; w < 1 + static_cast<int>(rng.UniformInt(10)); ++w) {
      text += " " + rng.Choice(words);
    }
    return text;
  };
  RawCsvs csvs;
  CsvTextBuilder train(CsvStringQuoting::kAll), test(CsvStringQuoting::kAll), labels, sample;
  train.Row({"id", "comment_text", "toxic", "severe_toxic", "obscene", "threat", "insult",
             "identity_hate"});
  for (int i = 0; i < train_rows; ++i) {
    train.String(rng.Hex(16)).String(comment());
    for (int c = 0; c < 6; ++c) train.Int(rng.Bernoulli(0.2) ? 1 : 0);
    train.EndRow();
  }
  test.Row({"id", "comment_text"});
  labels.Row({"id", "toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"});
  sample.Row({"id", "toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"});
  for (int i = 0; i < test_rows; ++i) {
    const std::string id = rng.Hex(16);
    test.String(id).String(comment()).EndRow();
    labels.String(id);
    const bool scored = rng.Bernoulli(0.5);
    for (int c = 0; c < 6; ++c) labels.Int(scored ? (rng.Bernoulli(0.3) ? 1 : 0) : -1);
    labels.EndRow();
    sample.String(id);
    for (int c = 0; c < 6; ++c) sample.Float(0.5);
    sample.EndRow();
  }
  return {train.text(), test.text(), labels.text(), sample.text()};
}

fs::path MakeRaw(const RawCsvs& csvs) {
  const fs::path raw = testing::NewTempDir("raw");
  for (const auto& [stem, text] : std::vector<std::pair<std::string, std::string>>{
           {"train", csvs.train},
           {"test", csvs.test},
           {"test_labels", csvs.test_labels},
           {"sample_submission", csvs.sample_submission}}) {
    EXPECT_TRUE(
        WriteZip(raw / (stem + ".csv.zip"), {ZipEntry::FromBytes(stem + ".csv", text)}).ok());
  }
  return raw;
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

TEST(JigsawPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const RawCsvs csvs = MakeCsvs(150, 80, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(csvs));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  EXPECT_THAT(train.ColumnNames(), ElementsAre("id", "comment_text", "toxic", "severe_toxic",
                                               "obscene", "threat", "insult", "identity_hate"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("id", "comment_text"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("id", "toxic", "severe_toxic", "obscene", "threat",
                                                "insult", "identity_hate"));
  EXPECT_EQ(answers.ColumnNames(), sample.ColumnNames());
  EXPECT_EQ(train.num_rows(), 150u);
  EXPECT_EQ(test.num_rows(), 80u);

  // Rows keep the raw order and values; comments survive with their quotes
  // and newlines; unscored answers keep their -1.
  absl::StatusOr<Table> raw_train = ReadCsvString(csvs.train, "train.csv");
  absl::StatusOr<Table> raw_labels = ReadCsvString(csvs.test_labels, "test_labels.csv");
  ASSERT_TRUE(raw_train.ok() && raw_labels.ok());
  EXPECT_EQ(Cells(train, "comment_text"), Cells(*raw_train, "comment_text"));
  EXPECT_EQ(Cells(train, "id"), Cells(*raw_train, "id"));
  for (const std::string& c : kClasses) {
    EXPECT_EQ(Cells(answers, c), Cells(*raw_labels, c)) << c;
    EXPECT_EQ(answers.Find(c)->dtype, Dtype::kInt64);
    EXPECT_EQ(sample.Find(c)->dtype, Dtype::kFloat64);
    for (const Cell& v : Cells(sample, c)) EXPECT_EQ(v, Cell(0.5));
  }
  EXPECT_EQ(Cells(test, "id"), Cells(answers, "id"));
  EXPECT_EQ(Cells(sample, "id"), Cells(answers, "id"));
  int unscored = 0;
  for (const Cell& v : Cells(answers, "toxic")) unscored += v == Cell(int64_t{-1});
  EXPECT_GT(unscored, 20);
}

TEST(JigsawPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(MakeCsvs(60, 40, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas.
constexpr char kReference[] = R"py(
import sys, zipfile
import pandas as pd

raw, public, private = sys.argv[1:4]
def read(stem):
    with zipfile.ZipFile(f"{raw}/{stem}.csv.zip") as archive:
        with archive.open(f"{stem}.csv") as f:
            return pd.read_csv(f, float_precision="round_trip")
train, test = read("train"), read("test")
answers, sample = read("test_labels"), read("sample_submission")
sample[["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]] = 0.5
train.to_csv(f"{public}/train.csv", index=False)
test.to_csv(f"{public}/test.csv", index=False)
sample.to_csv(f"{public}/sample_submission.csv", index=False)
answers.to_csv(f"{private}/test.csv", index=False)
)py";

// Runs our preparer and the pandas restatement on `raw`; the outputs must
// be byte-identical.
void ExpectMatchesPandas(const fs::path& raw) {
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

TEST(JigsawPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{1, 10}, {37, 11}, {1500, 12}}) {
    SCOPED_TRACE(rows);
    ExpectMatchesPandas(MakeRaw(MakeCsvs(rows, rows, seed)));
  }
}

TEST(JigsawPrepareTest, SampleSubmissionLabelsBecomeOneHalf) {
  RawCsvs csvs = MakeCsvs(5, 3, 3);
  // A sample submission with other values and without two label columns:
  // pandas overwrites the four and appends the two, in upstream's order.
  absl::StatusOr<Table> labels = ReadCsvString(csvs.test_labels, "test_labels.csv");
  ASSERT_TRUE(labels.ok());
  CsvTextBuilder sample;
  sample.Row({"id", "insult", "toxic", "obscene", "severe_toxic"});
  for (const Cell& id : labels->Find("id")->cells) {
    sample.String(std::get<std::string>(id)).Int(1).Float(0.1).Int(0).Float(0.9).EndRow();
  }
  csvs.sample_submission = sample.text();
  const fs::path raw = MakeRaw(csvs);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table prepared = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(prepared.ColumnNames(), ElementsAre("id", "insult", "toxic", "obscene",
                                                  "severe_toxic", "threat", "identity_hate"));
  for (const Column& c : prepared.columns()) {
    if (c.name != "id") {
      EXPECT_EQ(c.cells, std::vector<Cell>(3, Cell(0.5))) << c.name;
    }
  }
  ExpectMatchesPandas(raw);
}

TEST(JigsawPrepareTest, RejectsBadRawData) {
  const RawCsvs good = MakeCsvs(20, 10, 4);
  // Archives missing, holding the wrong file, or corrupt.
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  {
    const fs::path raw = MakeRaw(good);
    ASSERT_TRUE(
        WriteZip(raw / "test_labels.csv.zip", {ZipEntry::FromBytes("labels.csv", "a\n1\n")}).ok());
    EXPECT_THAT(testing::RunPreparer(kId, raw).status().message(), HasSubstr("no test_labels.csv"));
  }
  {
    const fs::path raw = MakeRaw(good);
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv.zip", "not a zip").ok());
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
  }
  // Upstream's checks.
  const RawCsvs other = MakeCsvs(20, 10, 5);
  RawCsvs labels_for_other_ids = good;
  labels_for_other_ids.test_labels = other.test_labels;
  labels_for_other_ids.sample_submission = other.sample_submission;
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(labels_for_other_ids)).status().message(),
              HasSubstr("Private and Public test IDs should match"));
  RawCsvs sample_for_other_ids = good;
  sample_for_other_ids.sample_submission = other.sample_submission;
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(sample_for_other_ids)).status().message(),
              HasSubstr("Public test and sample submission IDs should match"));
  RawCsvs short_sample = good;
  short_sample.sample_submission = MakeCsvs(0, 9, 4).sample_submission;
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(short_sample)).status().message(),
              HasSubstr("same length"));
  RawCsvs overlapping = good;
  overlapping.train +=
      good.test_labels.substr(good.test_labels.find('\n') + 1, 17) + "\"x\",0,0,0,0,0,0\n";
  EXPECT_THAT(testing::RunPreparer(kId, MakeRaw(overlapping)).status().message(),
              HasSubstr("Train and test IDs should not overlap"));
  RawCsvs no_id = good;
  no_id.test = "\"key\",\"comment_text\"\n\"a\",\"b\"\n";
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(no_id)).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
