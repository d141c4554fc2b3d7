#include "competitions/families/text_normalization/text_normalization_testing.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A competition's grade_test.cc instantiates the grade suite and its
// prepare_test.cc the prepare suite; a binary with only one of them passes.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TextNormalizationGradeTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TextNormalizationPrepareTest);

// ---------------------------------------------------------------- grading

// id,after rows (every field quoted, as the prepared files are).
std::string IdAfterCsv(const std::vector<std::pair<std::string, std::string>>& rows) {
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"id", "after"});
  for (const auto& [id, after] : rows) csv.String(id).String(after).EndRow();
  return csv.text();
}

// Answers 0_0 .. 1_1 holding the case's first four normalised tokens.
std::vector<std::pair<std::string, std::string>> AnswerRows(const TextNormalizationCase& c) {
  return {{"0_0", c.tokens[0].second},
          {"0_1", c.tokens[1].second},
          {"1_0", c.tokens[2].second},
          {"1_1", c.tokens[3].second}};
}

TEST_P(TextNormalizationGradeTest, RegisteredAsAccuracy) {
  EXPECT_EQ(RegisteredGrader(GetParam().competition_id).id, GetParam().competition_id);
}

TEST_P(TextNormalizationGradeTest, PerfectSubmissionInAnyOrderScoresOne) {
  const std::vector<std::pair<std::string, std::string>> rows = AnswerRows(GetParam());
  const std::string answers = IdAfterCsv(rows);
  EXPECT_EQ(*GradeCsvText(GetParam().competition_id, answers, answers), 1.0);
  EXPECT_EQ(*GradeCsvText(GetParam().competition_id,
                          IdAfterCsv({rows[3], rows[1], rows[0], rows[2]}), answers),
            1.0);
}

TEST_P(TextNormalizationGradeTest, FractionOfTokensExactlyRight) {
  const TextNormalizationCase& c = GetParam();
  const std::string answers = IdAfterCsv(AnswerRows(c));
  // The sample submission's idea (after = before): only unchanged tokens
  // score; here tokens 0 and 2 are rewritten by normalisation.
  EXPECT_EQ(*GradeCsvText(c.competition_id,
                          IdAfterCsv({{"0_0", c.tokens[0].first},
                                      {"0_1", c.tokens[1].second},
                                      {"1_0", c.tokens[2].first},
                                      {"1_1", c.tokens[3].second}}),
                          answers),
            0.5);
  // Comparison is exact: case and surrounding spaces count.
  EXPECT_EQ(*GradeCsvText(c.competition_id,
                          IdAfterCsv({{"0_0", c.tokens[0].second + " "},
                                      {"0_1", c.tokens[1].second},
                                      {"1_0", c.tokens[2].second},
                                      {"1_1", c.tokens[3].second}}),
                          answers),
            0.75);
}

TEST_P(TextNormalizationGradeTest, PredictionsCompareAsPythonStrings) {
  const std::string id = GetParam().competition_id;
  // The answers' "1" is text (its column holds words too).
  const std::string answers = "id,after\n0_0,1\n0_1,x\n";
  // An all-integer column: astype(str) gives "1" and "2".
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_1,2\n0_0,1\n", answers), 0.5);
  // A float column: "1.0" is not "1".
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_0,1.0\n0_1,2.5\n", answers), 0.0);
  // A missing value makes the integers floats: "1.0" and "nan".
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_0,1\n0_1,\n", answers), 0.0);
  // Missing values on both sides are the text "nan", so they match.
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_0,\n0_1,x\n", "id,after\n0_0,NA\n0_1,x\n"), 1.0);
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_0,nan\n0_1,x\n", "id,after\n0_0,NA\n0_1,x\n"), 1.0);
  // Booleans are "True"/"False".
  EXPECT_EQ(*GradeCsvText(id, "id,after\n0_0,True\n0_1,false\n", "id,after\n0_0,True\n0_1,x\n"),
            0.5);
}

TEST_P(TextNormalizationGradeTest, ExtraColumnsAreIgnored) {
  EXPECT_EQ(*GradeCsvText(GetParam().competition_id, "before,id,after\na,0_1,x\nb,0_0,1\n",
                          "id,after\n0_0,1\n0_1,x\n"),
            1.0);
}

TEST_P(TextNormalizationGradeTest, InvalidSubmissions) {
  const std::string id = GetParam().competition_id;
  const std::string answers = "id,after\n0_0,a\n0_1,b\n1_0,c\n";
  ExpectInvalid(GradeCsvText(id, "id,after\n0_0,a\n0_1,b\n", answers), "same length");
  ExpectInvalid(GradeCsvText(id, "id,after\n0_0,a\n0_1,b\n1_0,c\n1_1,d\n", answers),
                "same length");
  // The length check comes first.
  ExpectInvalid(GradeCsvText(id, "id,prediction\n0_0,a\n", answers), "same length");
  ExpectInvalid(GradeCsvText(id, "id,prediction\n0_0,a\n0_1,b\n1_0,c\n", answers),
                "must have a `after` column");
  ExpectInvalid(GradeCsvText(id, "token,after\n0_0,a\n0_1,b\n1_0,c\n", answers),
                "must have a `id` column");
  ExpectInvalid(GradeCsvText(id, "id,after\n0_0,a\n0_1,b\n1_1,c\n", answers), "do not match");
  ExpectInvalid(GradeCsvText(id, "id,after\n0_0,a\n0_0,b\n1_0,c\n", answers), "do not match");
  ExpectInvalid(GradeCsvText(id, "id,after\n0_0,a\n,b\n1_0,c\n", answers), "do not match");
  // Integer ids are never the answers' "<sentence>_<token>" texts.
  ExpectInvalid(GradeCsvText(id, "id,after\n0,a\n1,b\n10,c\n", answers), "do not match");
  ExpectInvalid(GradeCsvText(id, "id,after\n", answers), "same length");
}

TEST_P(TextNormalizationGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const CompetitionGrader& grader = RegisteredGrader(GetParam().competition_id);
  absl::StatusOr<Table> submission = ReadCsvString("id,after\n0_0,a\n", "submission");
  ASSERT_TRUE(submission.ok());
  for (std::string_view answers_csv : {"id,target\n0_0,a\n", "key,after\n0_0,a\n"}) {
    absl::StatusOr<Table> answers = ReadCsvString(answers_csv, "answers");
    ASSERT_TRUE(answers.ok());
    absl::StatusOr<double> score = grader.grade(*submission, *answers);
    EXPECT_FALSE(score.ok());
    EXPECT_FALSE(IsInvalidSubmission(score.status())) << score.status();
  }
}

// ---------------------------------------------------------------- preparing

// Raw train CSV as Kaggle writes it (strings quoted, numbers bare):
// `sentences` sentences with ids 5, 8, 11, ... (renumbering shows), each of
// 2..7 tokens drawn from the case's tokens and a few that stress quoting and
// pandas' missing-value reading.
std::string RawTrainCsv(const TextNormalizationCase& c, int sentences, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<std::pair<std::string, std::string>> tokens = c.tokens;
  tokens.push_back({",", ","});
  tokens.push_back({"\"", "\""});
  tokens.push_back({"NA", "n a"});  // pandas reads "NA" as missing
  tokens.push_back({"7", "7"});
  CsvTextBuilder csv(CsvStringQuoting::kAll);
  csv.Row({"sentence_id", "token_id", "class", "before", "after"});
  for (int s = 0; s < sentences; ++s) {
    const int length = static_cast<int>(rng.UniformInt(2, 7));
    for (int t = 0; t < length; ++t) {
      const auto& [before, after] = rng.Choice(tokens);
      csv.Int(5 + 3 * s).Int(t).String(before == after ? "PLAIN" : "CARDINAL");
      csv.String(before).String(after).EndRow();
    }
  }
  return csv.text();
}

fs::path MakeRaw(const TextNormalizationCase& c, const std::string& train_csv) {
  const fs::path raw = NewTempDir("raw");
  const std::string& l = c.language;
  EXPECT_TRUE(WriteZip(raw / (l + "_train.csv.zip"), {ZipEntry::FromBytes(l + "_train.csv", train_csv)}).ok());
  EXPECT_TRUE(WriteZip(raw / (l + "_test_2.csv.zip"),
                       {ZipEntry::FromBytes(l + "_test_2.csv",
                                            "\"sentence_id\",\"token_id\",\"before\"\n0,0,\"a\"\n")})
                  .ok());
  EXPECT_TRUE(WriteZip(raw / (l + "_sample_submission_2.csv.zip"),
                       {ZipEntry::FromBytes(l + "_sample_submission_2.csv",
                                            "\"id\",\"after\"\n\"0_0\",\"a\"\n")})
                  .ok());
  return raw;
}

// Unzips each public archive (checking it holds exactly its CSV) and returns
// every output CSV by name.
std::map<std::string, std::string> OutputCsvs(const TextNormalizationCase& c,
                                              const PreparedDirs& dirs) {
  std::map<std::string, std::string> csvs = ReadTree(dirs.private_dir);
  const fs::path unzipped = NewTempDir("unzipped");
  for (const auto& [name, bytes] : ReadTree(dirs.public_dir)) {
    EXPECT_TRUE(name.size() > 4 && name.substr(name.size() - 4) == ".zip") << name;
    absl::StatusOr<std::vector<std::string>> entries = ListZip(dirs.public_dir / name);
    EXPECT_TRUE(entries.ok());
    const std::string csv_name = name.substr(0, name.size() - 4);
    EXPECT_THAT(*entries, ElementsAre(csv_name));
    EXPECT_TRUE(ExtractZip(dirs.public_dir / name, unzipped).ok());
    absl::StatusOr<std::string> bytes_inside = ReadFileToString(unzipped / csv_name);
    EXPECT_TRUE(bytes_inside.ok());
    csvs["public/" + csv_name] = bytes_inside.ok() ? *bytes_inside : "";
  }
  (void)c;
  return csvs;
}

TEST_P(TextNormalizationPrepareTest, WritesUpstreamsFilesDeterministically) {
  const TextNormalizationCase& c = GetParam();
  const fs::path raw = MakeRaw(c, RawTrainCsv(c, 95, 1));
  const std::map<std::string, std::string> raw_before = ReadTree(raw);
  absl::StatusOr<PreparedDirs> first = RunPreparer(c.competition_id, raw);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<PreparedDirs> second = RunPreparer(c.competition_id, raw);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(ReadTree(raw), raw_before);
  EXPECT_EQ(ReadTree(first->public_dir), ReadTree(second->public_dir));
  EXPECT_EQ(ReadTree(first->private_dir), ReadTree(second->private_dir));

  std::vector<std::string> public_names, private_names;
  for (const auto& [name, bytes] : ReadTree(first->public_dir)) public_names.push_back(name);
  for (const auto& [name, bytes] : ReadTree(first->private_dir)) private_names.push_back(name);
  const std::string& l = c.language;
  EXPECT_THAT(public_names, ElementsAre(l + "_sample_submission_2.csv.zip", l + "_test_2.csv.zip",
                                        l + "_train.csv.zip"));
  EXPECT_THAT(private_names, ElementsAre("answers.csv", "sample_submission.csv"));

  std::map<std::string, std::string> csvs = OutputCsvs(c, *first);
  absl::StatusOr<Table> train = ReadCsvString(csvs["public/" + l + "_train.csv"], "train");
  absl::StatusOr<Table> test = ReadCsvString(csvs["public/" + l + "_test_2.csv"], "test");
  absl::StatusOr<Table> answers = ReadCsvString(csvs["answers.csv"], "answers");
  ASSERT_TRUE(train.ok() && test.ok() && answers.ok());
  EXPECT_THAT(train->ColumnNames(),
              ElementsAre("sentence_id", "token_id", "class", "before", "after"));
  EXPECT_THAT(test->ColumnNames(), ElementsAre("sentence_id", "token_id", "before"));
  EXPECT_THAT(answers->ColumnNames(), ElementsAre("id", "after"));
  EXPECT_EQ(csvs["public/" + l + "_sample_submission_2.csv"], csvs["sample_submission.csv"]);
  EXPECT_EQ(answers->num_rows(), test->num_rows());
  // ceil(0.1 * 95) = 10 test sentences, renumbered 0..9 (and train 0..84).
  EXPECT_EQ(std::get<int64_t>(test->Find("sentence_id")->cells.back()), 9);
  EXPECT_EQ(std::get<int64_t>(train->Find("sentence_id")->cells.back()), 84);
  absl::StatusOr<Table> raw_train = ReadCsvString(RawTrainCsv(c, 95, 1), "raw");
  ASSERT_TRUE(raw_train.ok());
  EXPECT_EQ(train->num_rows() + test->num_rows(), raw_train->num_rows());
  // Every field but numbers is quoted; "NA" (missing to pandas) is "".
  EXPECT_THAT(csvs["answers.csv"], ::testing::StartsWith("\"id\",\"after\"\n\"0_0\",\""));
  EXPECT_THAT(csvs["public/" + l + "_test_2.csv"], HasSubstr(",\"\"\n"));
}

TEST_P(TextNormalizationPrepareTest, BadRawInputIsAnError) {
  const TextNormalizationCase& c = GetParam();
  const std::string& l = c.language;
  const std::string good = RawTrainCsv(c, 20, 2);
  struct BadCase {
    std::string train_csv;
    std::string needle;
  };
  for (const BadCase& bad : std::vector<BadCase>{
           {"\"sentence_id\",\"token_id\",\"before\",\"after\"\n0,0,\"a\",\"a\"\n", "columns"},
           {"\"sentence_id\",\"token_id\",\"class\",\"before\",\"after\",\"x\"\n0,0,\"P\",\"a\",\"a\",1\n",
            "columns"},
           {"\"sentence_id\",\"token_id\",\"class\",\"before\",\"after\"\n0.5,0,\"P\",\"a\",\"a\"\n",
            "integers"},
           {"\"sentence_id\",\"token_id\",\"class\",\"before\",\"after\"\n,0,\"P\",\"a\",\"a\"\n",
            "integers"},
           // One sentence cannot be split 90/10.
           {"\"sentence_id\",\"token_id\",\"class\",\"before\",\"after\"\n0,0,\"P\",\"a\",\"a\"\n",
            "split"},
           {"", "columns"},
       }) {
    absl::StatusOr<PreparedDirs> result = RunPreparer(c.competition_id, MakeRaw(c, bad.train_csv));
    ASSERT_FALSE(result.ok()) << bad.train_csv;
    EXPECT_THAT(std::string(result.status().message()), HasSubstr(bad.needle));
  }
  // Each of the three archives upstream extracts must be there.
  for (const std::string& zip :
       {l + "_train.csv.zip", l + "_test_2.csv.zip", l + "_sample_submission_2.csv.zip"}) {
    const fs::path raw = MakeRaw(c, good);
    fs::remove(raw / zip);
    EXPECT_FALSE(RunPreparer(c.competition_id, raw).ok()) << zip;
  }
  // An archive without the CSV.
  const fs::path raw = MakeRaw(c, good);
  ASSERT_TRUE(WriteZip(raw / (l + "_train.csv.zip"), {ZipEntry::FromBytes("other.csv", good)}).ok());
  absl::StatusOr<PreparedDirs> result = RunPreparer(c.competition_id, raw);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("holds no"));
}

// Upstream's prepare.py restated in pandas + scikit-learn; writes the five
// CSVs (uncompressed) into argv[2].
constexpr char kReferenceScript[] = R"py(
import csv, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

language, out = sys.argv[3], Path(sys.argv[2])
old = pd.read_csv(sys.argv[1], float_precision="round_trip")
unique = old["sentence_id"].unique()
train_ids, test_ids = train_test_split(unique, test_size=0.1, random_state=0)
train = old[old["sentence_id"].isin(train_ids)].copy()
answers = old[old["sentence_id"].isin(test_ids)].copy()
train["sentence_id"] = train["sentence_id"].map({o: n for n, o in enumerate(train["sentence_id"].unique())})
answers["sentence_id"] = answers["sentence_id"].map({o: n for n, o in enumerate(answers["sentence_id"].unique())})
test = answers.drop(["after", "class"], axis=1).copy()
answers["id"] = answers["sentence_id"].astype(str) + "_" + answers["token_id"].astype(str)
sample = test[["sentence_id", "token_id", "before"]].copy()
sample["id"] = sample["sentence_id"].astype(str) + "_" + sample["token_id"].astype(str)
sample["after"] = sample["before"]
kw = dict(index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC)
answers[["id", "after"]].to_csv(out / "answers.csv", **kw)
sample[["id", "after"]].to_csv(out / "sample_submission.csv", **kw)
(out / "public").mkdir()
train.to_csv(out / "public" / f"{language}_train.csv", **kw)
test.to_csv(out / "public" / f"{language}_test_2.csv", **kw)
sample[["id", "after"]].to_csv(out / "public" / f"{language}_sample_submission_2.csv", **kw)
)py";

TEST_P(TextNormalizationPrepareTest, MatchesPandasRestatementOfUpstream) {
  const TextNormalizationCase& c = GetParam();
  for (uint64_t seed : {3, 4}) {
    const std::string train_csv = RawTrainCsv(c, 150 + 37 * static_cast<int>(seed), seed);
    const fs::path raw = MakeRaw(c, train_csv);
    absl::StatusOr<PreparedDirs> ours = RunPreparer(c.competition_id, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();

    const fs::path input = NewTempDir("reference_input") / "train.csv";
    ASSERT_TRUE(WriteStringToFile(input, train_csv).ok());
    const fs::path reference = NewTempDir("reference");
    CommandResult result =
        RunPython(kReferenceScript, {input.string(), reference.string(), c.language});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::map<std::string, std::string> expected = ReadTree(reference);
    const std::map<std::string, std::string> actual = OutputCsvs(c, *ours);
    ASSERT_EQ(actual.size(), expected.size());
    for (const auto& [name, bytes] : expected) {
      ASSERT_TRUE(actual.count(name)) << name;
      EXPECT_EQ(actual.at(name), bytes) << name << " (seed " << seed << ")";
    }
  }
}

}  // namespace
}  // namespace mlebench::testing
