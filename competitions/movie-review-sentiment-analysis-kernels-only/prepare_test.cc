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
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle's train.tsv: tab-separated, unquoted, phrases of one sentence in a
// row. Phrases here also hold what stresses CSV writing: commas (quoted in
// answers.csv), inner double quotes, a lone space, numbers and pandas' NA
// tokens (which pandas reads as missing).
std::string RawTrainTsv(int rows, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> words = {
      "the",   "film", ",",    "is",   "n't",  "``",     "good", "''",
      "-LRB-", "a",    "dull", "bad,", "said", "\"no\"", "2002", "\xc3\xa9t\xc3\xa9"};
  std::string tsv = "PhraseId\tSentenceId\tPhrase\tSentiment\n";
  int sentence = 1;
  for (int i = 0; i < rows; ++i) {
    if (rng.Bernoulli(0.2)) ++sentence;
    std::string phrase;
    switch (rng.UniformInt(12)) {
      case 0:
        phrase = " ";
        break;
      case 1:
        phrase = rng.Bernoulli(0.5) ? "NA" : "null";
        break;
      case 2:
        phrase = "1999";
        break;
      default:
        for (int w = 0; w < 1 + static_cast<int>(rng.UniformInt(8)); ++w) {
          if (w > 0) phrase += " ";
          phrase += rng.Choice(words);
        }
    }
    absl::StrAppend(&tsv, 3 * i + 1, "\t", sentence, "\t", phrase, "\t", rng.UniformInt(5), "\n");
  }
  return tsv;
}

fs::path MakeRaw(const std::string& train_tsv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteZip(raw / "train.tsv.zip", {ZipEntry::FromBytes("train.tsv", train_tsv)}).ok());
  return raw;
}

// The single entry of a prepared archive, which must be `name`.
std::string ZippedFile(const fs::path& zip, const std::string& name) {
  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  EXPECT_TRUE(names.ok()) << names.status();
  if (!names.ok()) return "";
  EXPECT_THAT(*names, ElementsAre(name));
  const fs::path out = testing::NewTempDir("unzipped");
  EXPECT_TRUE(ExtractZip(zip, out).ok());
  absl::StatusOr<std::string> bytes = ReadFileToString(out / name);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : "";
}

Table ReadOrDie(std::string_view text, char separator = ',') {
  CsvReadOptions options;
  options.separator = separator;
  absl::StatusOr<Table> table = ReadCsvString(text, "test", options);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *table : Table();
}

std::vector<Cell> Cells(const Table& table, const std::string& column) {
  const Column* c = table.Find(column);
  EXPECT_NE(c, nullptr) << column;
  return c == nullptr ? std::vector<Cell>{} : c->cells;
}

// A prepared directory with the archives' single files unzipped, by name.
std::map<std::string, std::string> Unzipped(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& [name, bytes] : testing::ReadTree(dir)) {
    if (name.size() > 4 && name.substr(name.size() - 4) == ".zip") {
      const std::string inner = name.substr(0, name.size() - 4);
      files[inner] = ZippedFile(dir / name, inner);
    } else {
      files[name] = bytes;
    }
  }
  return files;
}

TEST(MovieReviewPrepareTest, WritesUpstreamsFilesColumnsAndRows) {
  const int rows = 250;
  const std::string train_tsv = RawTrainTsv(rows, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(train_tsv));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sampleSubmission.csv", "test.tsv.zip", "train.tsv.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));

  const std::map<std::string, std::string> public_files = Unzipped(dirs->public_dir);
  const Table train = ReadOrDie(public_files.at("train.tsv"), '\t');
  const Table test = ReadOrDie(public_files.at("test.tsv"), '\t');
  const Table sample = ReadOrDie(public_files.at("sampleSubmission.csv"));
  absl::StatusOr<std::string> answers_text = ReadFileToString(dirs->private_dir / "answers.csv");
  ASSERT_TRUE(answers_text.ok());
  const Table answers = ReadOrDie(*answers_text);
  EXPECT_THAT(train.ColumnNames(), ElementsAre("PhraseId", "SentenceId", "Phrase", "Sentiment"));
  EXPECT_THAT(test.ColumnNames(), ElementsAre("PhraseId", "SentenceId", "Phrase"));
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("PhraseId", "SentenceId", "Phrase", "Sentiment"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("PhraseId", "Sentiment"));
  EXPECT_EQ(test.num_rows(), 75u);  // ceil(0.3 * 250)
  EXPECT_EQ(train.num_rows(), 175u);
  // Tab-separated and unquoted where the phrase has a comma; comma-separated
  // and quoted in the answers.
  EXPECT_THAT(public_files.at("train.tsv"), HasSubstr("\tbad,"));
  EXPECT_THAT(*answers_text, HasSubstr(",\""));

  // Rows in train_test_split order.
  const Table old_train = ReadOrDie(train_tsv, '\t');
  TrainTestSplitOptions options;
  options.test_size = 0.3;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(rows, options);
  ASSERT_TRUE(split.ok());
  const std::vector<Cell> ids = Cells(old_train, "PhraseId");
  const std::vector<Cell> labels = Cells(old_train, "Sentiment");
  const std::vector<Cell> phrases = Cells(old_train, "Phrase");
  for (size_t i = 0; i < split->train_indices.size(); ++i) {
    EXPECT_EQ(Cells(train, "PhraseId")[i], ids[split->train_indices[i]]);
    EXPECT_EQ(Cells(train, "Sentiment")[i], labels[split->train_indices[i]]);
  }
  const std::vector<Cell> train_id_list = Cells(train, "PhraseId");
  const std::set<Cell> train_ids(train_id_list.begin(), train_id_list.end());
  for (size_t i = 0; i < split->test_indices.size(); ++i) {
    const int64_t row = split->test_indices[i];
    EXPECT_EQ(Cells(test, "PhraseId")[i], ids[row]);
    EXPECT_EQ(Cells(test, "Phrase")[i], phrases[row]);
    EXPECT_EQ(Cells(answers, "PhraseId")[i], ids[row]);
    EXPECT_EQ(Cells(answers, "Sentiment")[i], labels[row]);
    EXPECT_EQ(Cells(sample, "PhraseId")[i], ids[row]);
    EXPECT_EQ(Cells(sample, "Sentiment")[i], Cell(int64_t{2}));
    EXPECT_EQ(train_ids.count(ids[row]), 0u);
  }
}

TEST(MovieReviewPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrainTsv(90, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas and scikit-learn, writing the
// tab-separated files unzipped (the archives differ by design: Python's
// zipfile stamps file times).
constexpr char kReference[] = R"py(
import sys, zipfile
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
with zipfile.ZipFile(f"{raw}/train.tsv.zip") as archive:
    with archive.open("train.tsv") as f:
        table = pd.read_csv(f, sep="\t")
train, answers = train_test_split(table, test_size=0.3, random_state=0)
test = answers.drop("Sentiment", axis="columns")
sample = answers[["PhraseId", "Sentiment"]].copy()
sample["Sentiment"] = 2
answers.to_csv(f"{private}/answers.csv", index=False)
train.to_csv(f"{public}/train.tsv", index=False, sep="\t")
test.to_csv(f"{public}/test.tsv", index=False, sep="\t")
sample.to_csv(f"{public}/sampleSubmission.csv", index=False)
)py";

TEST(MovieReviewPrepareTest, MatchesPandasByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{2, 10}, {77, 11}, {3000, 12}}) {
    SCOPED_TRACE(rows);
    const fs::path raw = MakeRaw(RawTrainTsv(rows, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(Unzipped(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(MovieReviewPrepareTest, RunsUpstreamsChecks) {
  // A repeated PhraseId lands on both sides or twice on one.
  std::string repeated = "PhraseId\tSentenceId\tPhrase\tSentiment\n";
  for (int i = 0; i < 20; ++i) absl::StrAppend(&repeated, i % 10, "\t1\tword\t2\n");
  EXPECT_THAT(PrepareStatus(MakeRaw(repeated)).message(), HasSubstr("PhraseId in new_"));
  // Another column besides the four: the public test's columns are wrong.
  EXPECT_THAT(PrepareStatus(MakeRaw("PhraseId\tSentenceId\tPhrase\tExtra\tSentiment\n"
                                    "1\t1\ta\tx\t2\n2\t1\tb\ty\t3\n3\t1\tc\tz\t1\n"))
                  .message(),
              HasSubstr("new_test should have columns"));
  // Comma-separated text is one column called "PhraseId,SentenceId,...".
  EXPECT_FALSE(
      PrepareStatus(MakeRaw("PhraseId,SentenceId,Phrase,Sentiment\n1,1,a,2\n2,1,b,3\n3,1,c,1\n"))
          .ok());
}

TEST(MovieReviewPrepareTest, RejectsBadRawData) {
  // No train.tsv.zip; a zip without train.tsv; a corrupt zip.
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_tsv = testing::NewTempDir("no_tsv");
  ASSERT_TRUE(WriteZip(no_tsv / "train.tsv.zip", {ZipEntry::FromBytes("test.tsv", "a\n1\n")}).ok());
  EXPECT_THAT(PrepareStatus(no_tsv).message(), HasSubstr("no train.tsv"));
  const fs::path corrupt = testing::NewTempDir("corrupt");
  ASSERT_TRUE(WriteStringToFile(corrupt / "train.tsv.zip", "not a zip").ok());
  EXPECT_FALSE(PrepareStatus(corrupt).ok());
  // No Sentiment column; no PhraseId column; missing PhraseIds.
  EXPECT_FALSE(
      PrepareStatus(MakeRaw("PhraseId\tSentenceId\tPhrase\n1\t1\ta\n2\t1\tb\n3\t1\tc\n")).ok());
  EXPECT_FALSE(PrepareStatus(MakeRaw("Id\tSentenceId\tPhrase\tSentiment\n1\t1\ta\t2\n2\t1\tb\t2\n"
                                     "3\t1\tc\t2\n"))
                   .ok());
  EXPECT_THAT(
      PrepareStatus(MakeRaw("PhraseId\tSentenceId\tPhrase\tSentiment\n1\t1\ta\t2\n\t1\tb\t2\n"
                            "3\t1\tc\t2\n"))
          .message(),
      HasSubstr("must be an integer or text"));
  // Too few rows to split.
  EXPECT_FALSE(
      PrepareStatus(MakeRaw("PhraseId\tSentenceId\tPhrase\tSentiment\n1\t1\ta\t2\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
