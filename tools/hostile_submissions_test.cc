// Every registered grader against hostile submissions it has never seen.
//
// For each competition, the dummy agent's submission (the sample submission,
// from //competitions/<id>:<id>_sample_run) is mangled in ways a careless or
// broken agent produces (grading/hostile_variants.h): empty and binary files, a
// header only, missing, extra, renamed and reordered columns, dropped,
// repeated and reversed rows, foreign ids, NaN / infinite / huge / negative /
// textual / empty values, a 100 kB cell, an unterminated quote, CRLF line
// endings, a byte-order mark, and the answers file itself. The graders must
// take each one calmly: a score or an invalid-submission report with a
// reason, never an internal error (which would blame the answers), never a
// crash or a hang, and the same outcome twice.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "base/csv.h"
#include "base/python_float.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "grading/grader.h"
#include "grading/hostile_variants.h"
#include "grading/medals.h"
#include "grading/grade_submission.h"
#include "grading/report.h"
#include "gtest/gtest.h"
#include "tools/hostile_corpus.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::CompetitionTestFiles;
using ::mlebench::testing::CompetitionTestFilesFor;
using ::mlebench::testing::HostileVariants;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;

// One grading's outcome as text: "score <x>" or "invalid: <reason>"; any
// other failure makes the test fail.
std::string Outcome(const CompetitionGrader& grader, const std::string& variant,
                    const std::string& text, const TypedTable& answers) {
  absl::StatusOr<TypedTable> submission =
      ReadTypedCsvString(text, "submission.csv", grader.submission_csv);
  if (!submission.ok()) return absl::StrCat("unreadable: ", submission.status().message());
  absl::StatusOr<double> score = GradeTables(grader, *submission, answers);
  // Rounded as reports round it (so that BoundedOutcome can be compared).
  if (score.ok()) return absl::StrCat("score ", RoundPython(*score, 5));
  EXPECT_TRUE(IsInvalidSubmission(score.status()))
      << grader.id << ", " << variant << ": not an invalid-submission report but "
      << score.status();
  if (IsInvalidSubmission(score.status())) {
    EXPECT_FALSE(score.status().message().empty()) << grader.id << ", " << variant;
  }
  return absl::StrCat("invalid: ", score.status().message());
}

// The same through the grade step's bounded path (GradeSubmissionAgainst,
// from a file): "score <x>" or "invalid: <reason>", with a reader's error
// worded as Outcome words it.
std::string BoundedOutcome(const CompetitionGrader& grader, const AnswersForGrading& answers,
                           const std::string& text, const fs::path& scratch) {
  const fs::path file = scratch / "submission.csv";
  WriteFileOrFail(file, text);
  absl::StatusOr<CompetitionReport> report =
      GradeSubmissionAgainst(grader, file.string(), answers, MedalThresholds(), ReportContext());
  EXPECT_TRUE(report.ok()) << grader.id << ": " << report.status();
  if (!report.ok()) return "error";
  if (report->valid_submission()) return absl::StrCat("score ", report->score().number_value());
  constexpr absl::string_view kUnreadable = "submission is not a readable CSV: ";
  absl::string_view reason = report->invalid_reason();
  if (absl::ConsumePrefix(&reason, kUnreadable)) {
    // The reader names the file it read; Outcome's reads a string.
    return absl::StrCat("unreadable: ",
                        absl::StrReplaceAll(reason, {{file.string(), "submission.csv"}}));
  }
  return absl::StrCat("invalid: ", reason);
}

// Whether `text` is beyond what `answers` allow a submission: more bytes, or
// more cells than the limit (rows x the widest row, header included).
bool OverLimits(const std::string& text, const AnswersForGrading& answers) {
  if (static_cast<int64_t>(text.size()) > answers.limits.max_submission_bytes) return true;
  int64_t lines = 0;
  int64_t widest = 0;
  int64_t fields = 1;
  for (char c : text) {
    if (c == ',') ++fields;
    if (c == '\n') {
      ++lines;
      widest = std::max(widest, fields);
      fields = 1;
    }
  }
  return (lines + 1) * std::max<int64_t>(widest, 1) > answers.limits.max_submission_cells;
}

class HostileSubmissionsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileSubmissionsTest, EveryGraderAnswersCalmly) {
  const std::string id = GetParam();
  const CompetitionGrader* grader = GraderRegistry::Find(id);
  ASSERT_NE(grader, nullptr) << id << " has no grader";
  absl::StatusOr<CompetitionTestFiles> files = CompetitionTestFilesFor(id);
  ASSERT_TRUE(files.ok()) << files.status();
  const fs::path& answers_file = files->answers;
  const fs::path& sample_file = files->dummy_submission;
  absl::StatusOr<TypedTable> answers = ReadAnswersFile(*grader, answers_file.string());
  ASSERT_TRUE(answers.ok()) << answers.status();
  absl::StatusOr<AnswersForGrading> bounded_answers =
      ReadAnswersForGrading(*grader, answers_file.string());
  ASSERT_TRUE(bounded_answers.ok()) << bounded_answers.status();
  const fs::path scratch = NewTempDir(id);
  const std::string sample = ReadFileOrEmpty(sample_file);
  ASSERT_FALSE(sample.empty()) << sample_file;
  absl::StatusOr<Table> sample_table = ReadCsvString(sample, "sample", grader->submission_csv);
  ASSERT_TRUE(sample_table.ok()) << sample_table.status();
  size_t graded = 0, invalid = 0;
  for (const auto& [variant, text] :
       HostileVariants(sample, *sample_table, ReadFileOrEmpty(answers_file))) {
    SCOPED_TRACE(variant);
    std::cerr << id << ": " << variant << "\n";  // where a crash or a hang happened
    const std::string first = Outcome(*grader, variant, text, *answers);
    const std::string second = Outcome(*grader, variant, text, *answers);
    EXPECT_EQ(first, second) << id << ", " << variant << ": not deterministic";
    ++(first.rfind("score ", 0) == 0 ? graded : invalid);
    // The grade step's bounded path decides the same, unless the variant is
    // larger than the answers allow (then it says so).
    const std::string bounded = BoundedOutcome(*grader, *bounded_answers, text, scratch);
    if (bounded.rfind("invalid: submission is too large to grade", 0) == 0) {
      EXPECT_TRUE(OverLimits(text, *bounded_answers)) << id << ", " << variant << ": " << bounded;
    } else {
      EXPECT_EQ(bounded, first) << id << ", " << variant;
    }
  }
  // The sample submission itself is always within the limits.
  EXPECT_EQ(BoundedOutcome(*grader, *bounded_answers, sample, scratch),
            Outcome(*grader, "sample", sample, *answers))
      << id;
  // Submissions made to cost memory are refused before their cells exist:
  // headers over short rows that the padding would make more cells than the
  // answers allow (a narrow one, and a wide one that the reader's own limit
  // of 16 cells per byte may stop first), and a file of more bytes than
  // allowed.
  const GradingLimits& limits = bounded_answers->limits;
  for (const size_t header_width : {size_t{8}, size_t{2000}}) {
    std::string padded;
    for (size_t c = 0; c < header_width; ++c) absl::StrAppend(&padded, c == 0 ? "" : ",", "c", c);
    padded += "\n";
    const size_t rows = static_cast<size_t>(limits.max_submission_cells) / header_width + 1;
    for (size_t r = 0; r < rows; ++r) padded += "1\n";
    const std::string outcome = BoundedOutcome(*grader, *bounded_answers, padded, scratch);
    EXPECT_TRUE(absl::StrContains(outcome, absl::StrCat(" or more rows of ", header_width,
                                                        " columns (the header row included) "
                                                        "are more than the limit of")) ||
                (header_width > 16 && absl::StrContains(outcome, "too many cells for")) ||
                (static_cast<int64_t>(header_width) > limits.max_submission_columns &&
                 absl::StrContains(outcome, absl::StrCat(header_width, " columns are more than"))))
        << id << ": " << outcome;
  }
  EXPECT_THAT(BoundedOutcome(*grader, *bounded_answers,
                             sample + std::string(limits.max_submission_bytes, '\n'), scratch),
              ::testing::HasSubstr("bytes, more than the"));
  // The list above is mostly broken submissions: a grader that accepts all
  // of them checks nothing.
  EXPECT_GT(invalid, 0u) << id;
}

std::vector<std::string> RegisteredIds() {
  std::vector<std::string> ids;
  for (const CompetitionGrader* g : GraderRegistry::All()) ids.push_back(g->id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllCompetitions, HostileSubmissionsTest,
                         ::testing::ValuesIn(RegisteredIds()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name;
                           for (char c : info.param) name += std::isalnum(c) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace mlebench
