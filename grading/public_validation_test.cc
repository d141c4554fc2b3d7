#include "grading/public_validation.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "formats/seven_zip.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Basis = ValidationVerdict::Basis;

// The sample of every test grader: ids 1..4, a constant probability, as
// Kaggle's samples are.
constexpr char kSample[] = "id,label\n1,0.5\n2,0.5\n3,0.5\n4,0.5\n";

std::set<std::string> Ids(const Column& column) {
  std::set<std::string> ids;
  for (const Cell& cell : column.cells) {
    if (const auto* i = std::get_if<int64_t>(&cell)) {
      ids.insert(absl::StrCat(*i));
    } else if (const auto* s = std::get_if<std::string>(&cell)) {
      ids.insert(*s);
    } else {
      ids.insert("?");
    }
  }
  return ids;
}

// An AUC-like grader: the submission needs `id` and `label`, the answers'
// ids, numeric labels; the answers must hold both classes, 0 and 1 (which
// the sample's 0.5 are not).
absl::StatusOr<double> TwoClassGrade(const Table& submission, const Table& answers) {
  const Column* ids = submission.Find("id");
  const Column* labels = submission.Find("label");
  if (ids == nullptr || labels == nullptr) return InvalidSubmission("need id and label");
  if (submission.num_rows() != answers.num_rows()) return InvalidSubmission("row count");
  if (Ids(*ids) != Ids(*answers.Find("id"))) return InvalidSubmission("ids differ");
  for (const Cell& cell : labels->cells) {
    const auto* d = std::get_if<double>(&cell);
    if (!std::holds_alternative<int64_t>(cell) && (d == nullptr || !std::isfinite(*d))) {
      return InvalidSubmission("labels must be finite numbers");
    }
  }
  std::set<double> classes;
  for (const Cell& cell : answers.Find("label")->cells) {
    const auto* d = std::get_if<double>(&cell);
    if (d == nullptr || (*d != 0 && *d != 1)) return MalformedAnswers("labels not 0 or 1");
    classes.insert(*d);
  }
  if (classes.size() != 2) return MalformedAnswers("one class");
  return 0.5;
}

// An accuracy-like grader over integer classes that, as sklearn does,
// rejects text predictions against numbers only when both sides have at
// most two distinct values: a check the sample's constant cannot decide.
absl::StatusOr<double> ClassGrade(const Table& submission, const Table& answers) {
  const Column* labels = submission.Find("label");
  if (submission.Find("id") == nullptr || labels == nullptr) {
    return InvalidSubmission("need id and label");
  }
  if (submission.num_rows() != answers.num_rows()) return InvalidSubmission("row count");
  std::set<std::string> predicted = Ids(*labels);
  std::set<std::string> truth = Ids(*answers.Find("label"));
  if (labels->dtype == Dtype::kObject && answers.Find("label")->dtype == Dtype::kInt64 &&
      predicted.size() <= 2 && truth.size() <= 2) {
    return InvalidSubmission("mix of text and numbers");
  }
  return 1.0;
}

// A grader whose answers hold a column the sample lacks: the validator
// cannot run it and checks the sample's shape instead.
absl::StatusOr<double> SecretColumnGrade(const Table& submission, const Table& answers) {
  if (answers.Find("secret") == nullptr) return MalformedAnswers("no 'secret' column");
  return 0.0;
}

CompetitionGrader Grader(GradeFn grade) {
  CompetitionGrader grader;
  grader.id = "test-competition";
  grader.grade = grade;
  return grader;
}

PublicValidator Make(const CompetitionGrader& grader, const std::string& sample = kSample) {
  absl::StatusOr<PublicValidator> validator = PublicValidator::Create(grader, sample);
  EXPECT_TRUE(validator.ok()) << validator.status();
  return *std::move(validator);
}

TEST(PublicValidatorTest, TheSampleIsValidAndSaysSoInUpstreamsWords) {
  const CompetitionGrader grader = Grader(&TwoClassGrade);
  const PublicValidator validator = Make(grader);
  const ValidationVerdict verdict = validator.CheckText(kSample);
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(verdict.basis, Basis::kGrader);
  EXPECT_EQ(VerdictLine(verdict), "Submission is valid.");
}

TEST(PublicValidatorTest, TheGraderDecidesWithAStandInItTakes) {
  const CompetitionGrader grader = Grader(&TwoClassGrade);
  const PublicValidator validator = Make(grader);
  // The sample's 0.5 are not answers this grader takes; 0/1 in turn are.
  EXPECT_EQ(validator.StandInsTaken(), std::vector<std::string>{"two classes"});
  for (const auto& [text, reason] : std::vector<std::pair<std::string, std::string>>{
           {"id,label\n1,0.1\n2,0.2\n3,0.3\n", "row count"},
           {"id,label\n1,0.1\n2,0.2\n3,0.3\n5,0.1\n", "ids differ"},
           {"id,label\n1,0.1\n2,x\n3,0.3\n4,0.1\n", "labels must be finite numbers"},
           {"id,label\n1,0.1\n2,inf\n3,0.3\n4,0.1\n", "labels must be finite numbers"},
           {"id,prediction\n1,0.1\n2,0.1\n3,0.3\n4,0.1\n", "need id and label"}}) {
    SCOPED_TRACE(text);
    const ValidationVerdict verdict = validator.CheckText(text);
    EXPECT_FALSE(verdict.valid);
    EXPECT_EQ(verdict.basis, Basis::kGrader);
    EXPECT_THAT(verdict.reason, StartsWith(reason));
    EXPECT_THAT(verdict.reason, HasSubstr("standing in for the answers"));
  }
  EXPECT_TRUE(validator.CheckText("label,id\n0.9,4\n0.1,3\n0.2,2\n0.3,1\n").valid);
}

TEST(PublicValidatorTest, AValueCheckOnlyTheAnswersDecideDoesNotReject) {
  const CompetitionGrader grader = Grader(&ClassGrade);
  const PublicValidator validator = Make(grader, "id,label\n1,4\n2,4\n3,4\n4,4\n");
  // Against the sample's one class, text labels are a "mix"; against three
  // classes they are not: answers with many classes take them.
  const ValidationVerdict verdict = validator.CheckText("id,label\n1,a\n2,b\n3,a\n4,b\n");
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(verdict.basis, Basis::kGrader);
  // What every stand-in rejects is still invalid.
  EXPECT_FALSE(validator.CheckText("id,label\n1,a\n2,b\n").valid);
}

TEST(PublicValidatorTest, WithoutAStandInTheSampleChecksDecide) {
  const CompetitionGrader grader = Grader(&SecretColumnGrade);
  const PublicValidator validator = Make(grader);
  EXPECT_TRUE(validator.StandInsTaken().empty());
  const ValidationVerdict sample = validator.CheckText(kSample);
  EXPECT_TRUE(sample.valid) << sample.reason;
  EXPECT_EQ(sample.basis, Basis::kSample);
  // Reordered rows and columns, and extra columns, are fine.
  EXPECT_TRUE(validator.CheckText("label,id,extra\n0.9,4,x\n0.1,3,y\n0.2,2,z\n0.3,1,w\n").valid);
  // 2**70 is a number (pandas keeps it as text).
  EXPECT_TRUE(validator.CheckText("id,label\n1,1180591620717411303424\n2,0\n3,0\n4,0\n").valid);
  for (const auto& [text, reason] : std::vector<std::pair<std::string, std::string>>{
           {"id\n1\n2\n3\n4\n", "no column 'label'"},
           {"id,label\n1,0\n2,0\n3,0\n", "3 rows, where the sample submission has 4"},
           {"id,label\n1,0\n2,0\n3,0\n3,0\n", "'id' repeats ids, e.g. '3'"},
           {"id,label\n1,0\n2,0\n3,0\n9,0\n",
            "'id' holds ids that the sample submission does "
            "not have, e.g. '9'"},
           {"id,label\n1,0\n2,0\n3,0\n,0\n", "1 rows have no 'id'"},
           {"id,label\n1,0\n2,0\n3,0\n4,\n",
            "'label' must hold finite numbers, as in the "
            "sample submission: row 4 holds no value"},
           {"id,label\n1,0\n2,0\n3,-inf\n4,0\n", "'label' must hold finite numbers"},
           {"id,label\n1,0\n2,0\n3,x\n4,0\n", "row 3 holds 'x'"}}) {
    SCOPED_TRACE(text);
    const ValidationVerdict verdict = validator.CheckText(text);
    EXPECT_FALSE(verdict.valid);
    EXPECT_EQ(verdict.basis, Basis::kSample);
    EXPECT_THAT(verdict.reason, HasSubstr(reason));
  }
}

TEST(PublicValidatorTest, TheSampleChecksTakeWhatTheGraderSaysItTakes) {
  CompetitionGrader grader = Grader(&SecretColumnGrade);
  const std::string repeated = "id,label\n1,0\n2,0\n3,0\n4,0\n4,0\n";
  const std::string some = "id,label\n1,0\n2,0\n";
  const std::string foreign = "id,label\n1,0\n2,0\n3,0\n4,0\n9,0\n";
  const std::string nan = "id,label\n1,0\n2,0\n3,0\n4,nan\n";
  const auto valid = [&](const std::string& text) {
    return PublicValidator::Create(grader, kSample)->CheckText(text).valid;
  };
  EXPECT_FALSE(valid(repeated));
  EXPECT_FALSE(valid(nan));
  grader.sample_rows = SampleRows::kEachIdAnyTimes;
  EXPECT_TRUE(valid(repeated));
  EXPECT_FALSE(valid(some));
  EXPECT_FALSE(valid(foreign));
  grader.sample_rows = SampleRows::kSomeIds;
  EXPECT_TRUE(valid(some));
  EXPECT_FALSE(valid(foreign));
  grader.sample_rows = SampleRows::kAnyRows;
  EXPECT_TRUE(valid(foreign));
  grader.missing_numbers_allowed = true;
  EXPECT_TRUE(valid(nan));
  EXPECT_FALSE(valid("id,label\n1,0\n2,0\n3,0\n4,x\n"));
}

TEST(PublicValidatorTest, NumbersWhereTheSampleHasOnlyTextAreInvalid) {
  const CompetitionGrader grader = Grader(&SecretColumnGrade);
  const PublicValidator validator = Make(grader, "id,mask\na,1 2\nb,3 4\n");
  EXPECT_TRUE(validator.CheckText("id,mask\na,5 6\nb,\n").valid);
  // A number among text is text to pandas.
  EXPECT_TRUE(validator.CheckText("id,mask\na,5 6\nb,-1\n").valid);
  const ValidationVerdict verdict = validator.CheckText("id,mask\na,\nb,-1\n");
  EXPECT_FALSE(verdict.valid);
  EXPECT_THAT(verdict.reason, HasSubstr("'mask' must hold text, as in the sample submission: row "
                                        "2 holds the number -1"));
}

TEST(PublicValidatorTest, HostileTextGetsAReasonNeverACrash) {
  const CompetitionGrader grader = Grader(&TwoClassGrade);
  const PublicValidator validator = Make(grader);
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 131 + 7) & 0xFF);
  for (const auto& [text, reason] : std::vector<std::pair<std::string, std::string>>{
           {"", "need id and label"},
           {binary, "not a readable CSV"},
           {std::string(kSample) + "\"unterminated,1", "not a readable CSV"},
           {std::string("id,label\n1,0\0,5\n", 16), "not a readable CSV"},
           {std::string(validator.limits().max_submission_bytes + 1, '\n'), "too large"}}) {
    const ValidationVerdict verdict = validator.CheckText(text);
    EXPECT_FALSE(verdict.valid);
    EXPECT_THAT(verdict.reason, HasSubstr(reason));
    const std::string line = VerdictLine(verdict);
    EXPECT_THAT(line, StartsWith("Submission is invalid: "));
    EXPECT_EQ(line.find('\n'), std::string::npos);
    EXPECT_LT(line.size(), 1200u);
  }
  // More cells than the sample allows (short rows padded to a wide header)
  // are refused before they exist.
  std::string wide = "id,label";
  for (int c = 2; c < 16; ++c) absl::StrAppend(&wide, ",c", c);
  wide += "\n";
  const int64_t rows = validator.limits().max_submission_cells / 16 + 1;
  for (int64_t r = 0; r < rows; ++r) wide += ",\n";
  ASSERT_LT(static_cast<int64_t>(wide.size()), validator.limits().max_submission_bytes);
  EXPECT_THAT(validator.CheckText(wide).reason, HasSubstr("too large"));
  EXPECT_THAT(validator.CheckText(wide).reason, HasSubstr("cells"));
}

TEST(PublicValidatorTest, FilesMustBeRegularCsvFiles) {
  const CompetitionGrader grader = Grader(&TwoClassGrade);
  const PublicValidator validator = Make(grader);
  const fs::path dir = NewTempDir("public_validation");
  const fs::path good = dir / "submission.csv";
  WriteFileOrFail(good, kSample);
  EXPECT_TRUE(validator.CheckFile(good.string()).valid);

  fs::create_symlink(good, dir / "link.csv");
  EXPECT_TRUE(validator.CheckFile((dir / "link.csv").string()).valid);
  fs::create_symlink(dir / "nothing.csv", dir / "dangling.csv");
  EXPECT_THAT(validator.CheckFile((dir / "dangling.csv").string()).reason,
              HasSubstr("is a symlink to nothing"));
  EXPECT_THAT(validator.CheckFile((dir / "missing.csv").string()).reason,
              HasSubstr("there is no file at"));
  fs::create_directory(dir / "dir.csv");
  EXPECT_THAT(validator.CheckFile((dir / "dir.csv").string()).reason,
              HasSubstr("is a directory, not a file"));
  ASSERT_EQ(mkfifo((dir / "fifo.csv").c_str(), 0600), 0);
  EXPECT_THAT(validator.CheckFile((dir / "fifo.csv").string()).reason,
              HasSubstr("is not a regular file"));
  EXPECT_THAT(validator.CheckFile("/dev/zero").reason, HasSubstr("is not a regular file"));
  WriteFileOrFail(dir / "submission.txt", kSample);
  EXPECT_THAT(validator.CheckFile((dir / "submission.txt").string()).reason,
              HasSubstr("is not a .csv file"));
  WriteFileOrFail(dir / "UPPER.CSV", kSample);
  EXPECT_TRUE(validator.CheckFile((dir / "UPPER.CSV").string()).valid);

  // A file larger than allowed is refused without being read.
  const fs::path huge = dir / "huge.csv";
  WriteFileOrFail(huge, "");
  fs::resize_file(huge, static_cast<uintmax_t>(validator.limits().max_submission_bytes) + 1);
  EXPECT_THAT(validator.CheckFile(huge.string()).reason, HasSubstr("too large"));
  // A sparse file within the limit: the runner would not collect it.
  const fs::path sparse = dir / "sparse.csv";
  WriteFileOrFail(sparse, "");
  fs::resize_file(sparse, 1 << 20);
  const int fd = open(sparse.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, kSample, 8, (1 << 20) - 8), 8);
  close(fd);
  const ValidationVerdict verdict = validator.CheckFile(sparse.string());
  EXPECT_FALSE(verdict.valid);
  EXPECT_EQ(verdict.basis, Basis::kFile);
}

TEST(VerdictLineTest, OneEscapedBoundedLine) {
  const ValidationVerdict verdict{.valid = false,
                                  .reason = "a\nb\x1b[31m" + std::string(5000, 'x')};
  const std::string line = VerdictLine(verdict);
  EXPECT_THAT(line, StartsWith("Submission is invalid: a\\nb\\x1b[31m"));
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_THAT(line, HasSubstr("more bytes)"));
  EXPECT_LT(line.size(), 1100u);
}

TEST(ReadSampleSubmissionTest, ReadsCsvAndOneFileArchives) {
  const fs::path dir = NewTempDir("samples");
  WriteFileOrFail(dir / "sample.csv", kSample);
  EXPECT_EQ(*ReadSampleSubmission((dir / "sample.csv").string()), kSample);
  ASSERT_TRUE(WriteZip(dir / "one.csv.zip", {ZipEntry::FromBytes("sample.csv", kSample)}).ok());
  EXPECT_EQ(*ReadSampleSubmission((dir / "one.csv.zip").string()), kSample);
  ASSERT_TRUE(
      Write7z(dir / "one.csv.7z", {SevenZipEntry::FromBytes("d/sample.csv", kSample)}).ok());
  EXPECT_EQ(*ReadSampleSubmission((dir / "one.csv.7z").string()), kSample);
  ASSERT_TRUE(WriteZip(dir / "two.zip", {ZipEntry::FromBytes("a.csv", kSample),
                                         ZipEntry::FromBytes("b.csv", kSample)})
                  .ok());
  EXPECT_THAT(std::string(ReadSampleSubmission((dir / "two.zip").string()).status().message()),
              HasSubstr("holds 2 files, expected one"));
  EXPECT_FALSE(ReadSampleSubmission((dir / "missing.csv").string()).ok());
  EXPECT_FALSE(ReadSampleSubmission((dir / "sample.csv").string(), 8).ok());
  EXPECT_FALSE(ReadSampleSubmission(dir.string()).ok());
}

TEST(PublicValidatorTest, RefusesASampleItCannotUse) {
  const CompetitionGrader grader = Grader(&TwoClassGrade);
  EXPECT_FALSE(PublicValidator::Create(grader, "").ok());
  EXPECT_FALSE(PublicValidator::Create(grader, "id,label\n").ok());
  EXPECT_FALSE(PublicValidator::Create(grader, "\"id,label\n").ok());
}

}  // namespace
}  // namespace mlebench
