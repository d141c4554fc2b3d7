#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

struct RawComment {
  int64_t insult;
  std::string date;  // "" for a blank date
  std::string comment;
  std::string usage;
};

// Distinct comments shaped like Kaggle's: wrapped in literal quotes, with
// commas, escapes kept as text (\\n, \xa0), quotes, UTF-8 and the odd raw
// line break; every `blank_date_rate`-th date or so is blank. `tag` keeps
// two calls' comments apart.
std::vector<RawComment> RandomComments(int count, uint64_t seed, std::string_view tag,
                                       double blank_date_rate = 0.2) {
  SyntheticRng rng(seed);
  const std::vector<std::string> words = {"you",   "are",   "an",     "idiot",  "thanks",
                                          "for",   "the",   "link",   "really", "great",
                                          "point", "moron", "agree",  "lol",    "caf\xc3\xa9",
                                          "\\xa0", "\\\\n", "\"ok\"", "well,",  "no;"};
  std::vector<RawComment> comments;
  for (int i = 0; i < count; ++i) {
    RawComment c;
    c.insult = rng.Bernoulli(0.3) ? 1 : 0;
    if (!rng.Bernoulli(blank_date_rate)) {
      c.date =
          absl::StrFormat("2012%02d%02d%02d%02d%02dZ", rng.UniformInt(1, 9), rng.UniformInt(1, 28),
                          rng.UniformInt(0, 23), rng.UniformInt(0, 59), rng.UniformInt(0, 59));
    }
    std::string text = absl::StrFormat("%s%d", tag, i);
    for (int w = static_cast<int>(rng.UniformInt(1, 12)); w > 0; --w)
      text += " " + rng.Choice(words);
    if (rng.Bernoulli(0.05)) text += "\nsecond line";
    c.comment = "\"" + text + "\"";
    c.usage = rng.Bernoulli(0.3) ? "PublicTest" : "PrivateTest";
    comments.push_back(std::move(c));
  }
  return comments;
}

std::string TrainCsv(const std::vector<RawComment>& comments) {
  CsvTextBuilder csv;
  csv.Row({"Insult", "Date", "Comment"});
  for (const RawComment& c : comments) {
    csv.Int(c.insult);
    c.date.empty() ? csv.Missing() : csv.String(c.date);
    csv.String(c.comment).EndRow();
  }
  return csv.text();
}

std::string SolutionsCsv(const std::vector<RawComment>& comments) {
  CsvTextBuilder csv;
  csv.Row({"Insult", "Date", "Comment", "Usage"});
  for (const RawComment& c : comments) {
    csv.Int(c.insult);
    c.date.empty() ? csv.Missing() : csv.String(c.date);
    csv.String(c.comment).String(c.usage).EndRow();
  }
  return csv.text();
}

fs::path MakeRaw(const std::string& train_csv, const std::string& solutions_csv) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.csv", train_csv).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test_with_solutions.csv", solutions_csv).ok());
  return raw;
}

fs::path MakeRaw(int train_rows, int test_rows, uint64_t seed) {
  return MakeRaw(TrainCsv(RandomComments(train_rows, seed, "train")),
                 SolutionsCsv(RandomComments(test_rows, seed + 1000, "test")));
}

TEST(DetectingInsultsPrepareTest, CopiesTrainAndDerivesTheTestFiles) {
  const std::vector<RawComment> test = RandomComments(40, 2, "test");
  const fs::path raw = MakeRaw(TrainCsv(RandomComments(60, 1, "train")), SolutionsCsv(test));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission_null.csv", "test.csv", "train.csv"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("gold_submission.csv", "test.csv"));

  // Straight copies, mode 0644 whatever the source's.
  const auto raw_files = testing::ReadTree(raw);
  EXPECT_EQ(testing::ReadTree(dirs->public_dir)["train.csv"], raw_files.at("train.csv"));
  EXPECT_EQ(testing::ReadTree(dirs->private_dir)["test.csv"],
            raw_files.at("test_with_solutions.csv"));
  EXPECT_EQ(fs::status(dirs->public_dir / "train.csv").permissions() & fs::perms::all,
            fs::perms(0644));

  const Table gold = testing::ReadCsvOrFail(dirs->private_dir / "gold_submission.csv");
  const Table public_test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission_null.csv");
  EXPECT_THAT(gold.ColumnNames(), ElementsAre("Insult", "Date", "Comment"));
  EXPECT_THAT(public_test.ColumnNames(), ElementsAre("Date", "Comment"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("Insult", "Date", "Comment"));
  ASSERT_EQ(gold.num_rows(), test.size());
  ASSERT_EQ(public_test.num_rows(), test.size());
  ASSERT_EQ(sample.num_rows(), test.size());
  for (size_t i = 0; i < test.size(); ++i) {
    // Rows keep the raw order; the comments survive the round trip exactly.
    EXPECT_EQ(gold.Find("Comment")->cells[i], Cell(test[i].comment));
    EXPECT_EQ(public_test.Find("Comment")->cells[i], Cell(test[i].comment));
    EXPECT_EQ(sample.Find("Comment")->cells[i], Cell(test[i].comment));
    EXPECT_EQ(gold.Find("Insult")->cells[i], Cell(test[i].insult));
    EXPECT_EQ(sample.Find("Insult")->cells[i], Cell(int64_t{0}));
    const Cell date = test[i].date.empty() ? Cell() : Cell(test[i].date);
    EXPECT_EQ(public_test.Find("Date")->cells[i], date);
  }
}

// The prepared files work with the grader: the sample submission is valid
// (all scores 0: AUC 0.5) and the gold submission is perfect.
TEST(DetectingInsultsPrepareTest, SampleAndGoldSubmissionsGrade) {
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(80, 60, 14));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  auto tree = [](const fs::path& dir) { return testing::ReadTree(dir); };
  const std::string answers = tree(dirs->private_dir)["test.csv"];
  absl::StatusOr<double> sample =
      testing::GradeCsvText(kId, tree(dirs->public_dir)["sample_submission_null.csv"], answers);
  ASSERT_TRUE(sample.ok()) << sample.status();
  EXPECT_EQ(*sample, 0.5);
  absl::StatusOr<double> gold =
      testing::GradeCsvText(kId, tree(dirs->private_dir)["gold_submission.csv"], answers);
  ASSERT_TRUE(gold.ok()) << gold.status();
  EXPECT_EQ(*gold, 1.0);
}

TEST(DetectingInsultsPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(50, 30, 3);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas (its asserts left out).
constexpr char kReference[] = R"py(
import shutil, sys
import pandas as pd

raw, public, private = sys.argv[1:4]
shutil.copy(f"{raw}/train.csv", f"{public}/train.csv")
shutil.copy(f"{raw}/test_with_solutions.csv", f"{private}/test.csv")
gold = pd.read_csv(f"{private}/test.csv", float_precision="round_trip")[["Insult", "Date", "Comment"]]
gold.to_csv(f"{private}/gold_submission.csv", index=False)
gold.drop(columns=["Insult"]).to_csv(f"{public}/test.csv", index=False)
sample = gold.copy()
sample["Insult"] = 0
sample.to_csv(f"{public}/sample_submission_null.csv", index=False)
)py";

TEST(DetectingInsultsPrepareTest, CsvFilesMatchPandasByteForByte) {
  struct Case {
    int train_rows, test_rows;
    uint64_t seed;
    double blank_date_rate;
  };
  for (const Case& c : std::vector<Case>{
           {3, 1, 10, 0.2}, {200, 150, 11, 0.2}, {30, 20, 12, 1.0}, {40, 1500, 13, 0.0}}) {
    SCOPED_TRACE(c.seed);
    const fs::path raw =
        MakeRaw(TrainCsv(RandomComments(c.train_rows, c.seed, "train", c.blank_date_rate)),
                SolutionsCsv(RandomComments(c.test_rows, c.seed + 1, "test", c.blank_date_rate)));
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

TEST(DetectingInsultsPrepareTest, RunsUpstreamsChecks) {
  const std::vector<RawComment> train = RandomComments(20, 4, "train");
  const std::vector<RawComment> test = RandomComments(10, 5, "test");
  // A test comment that is also in train.
  std::vector<RawComment> leaky = test;
  leaky[3].comment = train[7].comment;
  EXPECT_THAT(PrepareStatus(MakeRaw(TrainCsv(train), SolutionsCsv(leaky))).message(),
              HasSubstr("None of the test comments should be in the train comments"));
  // Blank comments on both sides count as one shared value, as in Python's sets.
  std::vector<RawComment> blank_train = train, blank_test = test;
  blank_train[0].comment = "";
  blank_test[0].comment = "";
  EXPECT_THAT(PrepareStatus(MakeRaw(TrainCsv(blank_train), SolutionsCsv(blank_test))).message(),
              HasSubstr("None of the test comments should be in the train comments"));
  blank_train[0].comment = train[0].comment;
  EXPECT_TRUE(PrepareStatus(MakeRaw(TrainCsv(blank_train), SolutionsCsv(blank_test))).ok());
  // Train columns must be exactly Insult, Date, Comment.
  std::string extra_column = TrainCsv(train);
  extra_column.replace(0, extra_column.find('\n'), "Insult,Date,Comment,Id");
  EXPECT_THAT(PrepareStatus(MakeRaw(extra_column, SolutionsCsv(test))).message(),
              HasSubstr("Train columns should be Insult, Date, Comment"));
  // The labelled test set must be exactly Insult, Date, Comment, Usage.
  EXPECT_THAT(PrepareStatus(MakeRaw(TrainCsv(train), TrainCsv(test))).message(),
              HasSubstr("Private test columns should be Insult, Date, Comment, Usage"));
  std::string reordered = SolutionsCsv(test);
  reordered.replace(0, reordered.find('\n'), "Insult,Date,Comment,Usage,Id");
  EXPECT_THAT(PrepareStatus(MakeRaw(TrainCsv(train), reordered)).message(),
              HasSubstr("Private test columns should be"));
}

TEST(DetectingInsultsPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_solutions = MakeRaw(10, 5, 6);
  fs::remove(no_solutions / "test_with_solutions.csv");
  EXPECT_FALSE(PrepareStatus(no_solutions).ok());
  const fs::path no_train = MakeRaw(10, 5, 7);
  fs::remove(no_train / "train.csv");
  EXPECT_FALSE(PrepareStatus(no_train).ok());
  // The labelled test set without a Comment column (pandas' KeyError).
  EXPECT_THAT(PrepareStatus(MakeRaw(TrainCsv(RandomComments(5, 8, "train")),
                                    "Insult,Date,Text,Usage\n1,,\"a\",PublicTest\n"))
                  .message(),
              HasSubstr("Comment"));
  // Empty and binary files.
  EXPECT_FALSE(PrepareStatus(MakeRaw(TrainCsv(RandomComments(5, 9, "train")), "")).ok());
  EXPECT_FALSE(
      PrepareStatus(MakeRaw(std::string("Insult,Date,Comment\n1,\0\xff,x\n", 25), "x")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
