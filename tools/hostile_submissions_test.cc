// Every registered grader against hostile submissions it has never seen.
//
// For each competition, the dummy agent's submission (the sample submission,
// from //competitions/<id>:<id>_run) is mangled in ways a careless or broken
// agent produces: empty and binary files, a header only, missing, extra,
// renamed and reordered columns, dropped, repeated and reversed rows, foreign
// ids, NaN / infinite / huge / negative / textual / empty values, a 100 kB
// cell, an unterminated quote, CRLF line endings, a byte-order mark, and the
// answers file itself. The graders must take each one calmly: a score or an
// invalid-submission report with a reason, never an internal error (which
// would blame the answers), never a crash or a hang, and the same outcome
// twice.
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
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/strip.h"
#include "base/csv.h"
#include "base/python_float.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "grading/competition_table.h"
#include "grading/grader.h"
#include "grading/medals.h"
#include "grading/report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;

// A deterministic byte soup with NULs, invalid UTF-8, quotes and newlines.
std::string BinaryGarbage(size_t size) {
  std::string out(size, '\0');
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (char& c : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    c = static_cast<char>(state & 0xFF);
  }
  return out;
}

// The table with every cell of the columns after the first replaced by
// `value` (text as a CSV reader would see it).
Table WithValues(const Table& table, const Cell& value) {
  Table out = table;
  for (size_t c = 1; c < out.num_columns(); ++c) {
    Column& column = out.mutable_columns()[c];
    column.dtype = Dtype::kObject;
    for (Cell& cell : column.cells) cell = value;
  }
  return out;
}

Table WithRows(const Table& table, const std::vector<size_t>& rows) {
  Table out = table;
  for (Column& column : out.mutable_columns()) {
    std::vector<Cell> cells;
    cells.reserve(rows.size());
    for (size_t r : rows) cells.push_back(column.cells[r]);
    column.cells = std::move(cells);
  }
  return out;
}

// Named hostile variants of `sample` (the sample submission's text).
std::vector<std::pair<std::string, std::string>> HostileVariants(const std::string& sample,
                                                                 const Table& table,
                                                                 const std::string& answers) {
  std::vector<std::pair<std::string, std::string>> v;
  v.emplace_back("empty file", "");
  v.emplace_back("binary garbage", BinaryGarbage(4096));
  v.emplace_back("header only", sample.substr(0, sample.find('\n') + 1));
  v.emplace_back("no trailing newline, unterminated quote", sample + "\"unterminated,1");
  v.emplace_back("byte-order mark", "\xEF\xBB\xBF" + sample);
  {
    std::string crlf;
    for (char c : sample) {
      if (c == '\n') crlf += '\r';
      crlf += c;
    }
    v.emplace_back("CRLF line endings", crlf);
  }
  v.emplace_back("the answers file", answers);
  const size_t n = table.num_rows();
  if (table.num_columns() == 0) return v;
  std::vector<size_t> reversed, repeated, dropped;
  for (size_t r = 0; r < n; ++r) reversed.push_back(n - 1 - r);
  for (size_t r = 0; r < n; ++r) repeated.push_back(r);
  if (n > 0) repeated.push_back(0);
  for (size_t r = 0; r + 1 < n; ++r) dropped.push_back(r);
  v.emplace_back("rows reversed", WriteCsvString(WithRows(table, reversed)));
  v.emplace_back("first row repeated", WriteCsvString(WithRows(table, repeated)));
  v.emplace_back("last row dropped", WriteCsvString(WithRows(table, dropped)));
  v.emplace_back("no rows", WriteCsvString(WithRows(table, {})));
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, Cell>>{{"NaN", Cell()},
                                                 {"inf", Cell(std::string("inf"))},
                                                 {"-inf", Cell(std::string("-inf"))},
                                                 {"1e308", Cell(std::string("1e308"))},
                                                 {"-1", Cell(std::string("-1"))},
                                                 {"text", Cell(std::string("x y"))},
                                                 {"empty text", Cell(std::string(""))},
                                                 {"2**70", Cell(std::string("1180591620717411303424"))}}) {
    v.emplace_back("values " + name, WriteCsvString(WithValues(table, value)));
  }
  if (n > 0) {
    Table long_cell = table;
    for (size_t c = 1; c < long_cell.num_columns(); ++c) {
      long_cell.mutable_columns()[c].dtype = Dtype::kObject;
      long_cell.mutable_columns()[c].cells[0] = Cell(std::string(100000, 'a'));
    }
    v.emplace_back("a 100 kB cell in the first row", WriteCsvString(long_cell));
  }
  {
    Table ids = table;
    for (Cell& cell : ids.mutable_columns()[0].cells) {
      cell = Cell(absl::StrCat(std::holds_alternative<std::string>(cell) ? std::get<std::string>(cell)
                                                                         : std::string("id"),
                               "_foreign"));
    }
    ids.mutable_columns()[0].dtype = Dtype::kObject;
    v.emplace_back("foreign ids", WriteCsvString(ids));
  }
  {
    Table reordered;
    for (auto it = table.columns().rbegin(); it != table.columns().rend(); ++it) {
      reordered.mutable_columns().push_back(*it);
    }
    v.emplace_back("columns reversed", WriteCsvString(reordered));
  }
  {
    Table extra = table;
    Column column;
    column.name = "extra";
    column.dtype = Dtype::kInt64;
    column.cells.assign(n, Cell(int64_t{1}));
    extra.mutable_columns().push_back(column);
    v.emplace_back("extra column", WriteCsvString(extra));
  }
  for (size_t c = 0; c < table.num_columns(); ++c) {
    Table fewer = table;
    fewer.mutable_columns().erase(fewer.mutable_columns().begin() + static_cast<long>(c));
    if (fewer.num_columns() == 0) continue;
    v.emplace_back("without column " + table.columns()[c].name, WriteCsvString(fewer));
  }
  {
    Table renamed = table;
    for (Column& column : renamed.mutable_columns()) column.name = column.name + "_renamed";
    v.emplace_back("columns renamed", WriteCsvString(renamed));
  }
  return v;
}

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
  absl::StatusOr<std::map<std::string, CompetitionInfo>> table =
      ReadCompetitionTable("competitions/competitions.tsv");
  ASSERT_TRUE(table.ok()) << table.status();
  const std::string prefix = id + "/prepared/private/";
  const std::string& answers_path = table->at(id).answers_path;
  ASSERT_EQ(answers_path.rfind(prefix, 0), 0u) << answers_path;
  const fs::path answers_file =
      fs::path("competitions") / id / (id + "_data") / "private" / answers_path.substr(prefix.size());
  const fs::path sample_file =
      fs::path("competitions") / id / (id + "_sample_run") / "run-0" / "submission" / "submission.csv";
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
