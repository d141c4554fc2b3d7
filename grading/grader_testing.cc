#include "grading/grader_testing.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

absl::StatusOr<double> Unregistered(const Table&, const Table&) {
  return absl::InternalError("no grader registered");
}

const CompetitionGrader kUnregistered{.id = "", .grade = &Unregistered};

TypedTable Read(std::string_view csv, std::string_view what, const CsvReadOptions& options) {
  absl::StatusOr<TypedTable> table = ReadTypedCsvString(csv, what, options);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : TypedTable();
}

TypedTable ReadAnswers(const CompetitionGrader& grader, std::string_view text) {
  absl::StatusOr<TypedTable> table = ReadAnswersString(
      grader, text,
      grader.answers_format == AnswersFormat::kJsonLines ? "answers.jsonl" : "answers.csv");
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : TypedTable();
}

}  // namespace

const CompetitionGrader& RegisteredGrader(std::string_view id) {
  const CompetitionGrader* grader = GraderRegistry::Find(id);
  EXPECT_NE(grader, nullptr) << "no grader registered as " << std::string(id);
  return grader != nullptr ? *grader : kUnregistered;
}

absl::StatusOr<double> GradeCsvText(std::string_view id, std::string_view submission_csv,
                                    std::string_view answers_csv) {
  const CompetitionGrader& grader = RegisteredGrader(id);
  return GradeTables(grader, Read(submission_csv, "submission.csv", grader.submission_csv),
                     ReadAnswers(grader, answers_csv));
}

void ExpectInvalid(const absl::StatusOr<double>& result, std::string_view needle) {
  ASSERT_FALSE(result.ok()) << "scored " << *result << ", expected an invalid submission";
  EXPECT_TRUE(IsInvalidSubmission(result.status())) << result.status();
  EXPECT_NE(result.status().message().find(std::string(needle)), std::string::npos)
      << result.status() << "\n(expected the reason to mention: " << std::string(needle) << ")";
}

UpstreamGradeComparison CompareWithUpstreamOutcomes(std::string_view id,
                                                    const std::filesystem::path& dir,
                                                    const std::string& upstream_outcomes, int cases,
                                                    double relative_tolerance) {
  UpstreamGradeComparison counts;
  const std::vector<std::string> outcomes =
      absl::StrSplit(upstream_outcomes, '\n', absl::SkipEmpty());
  if (outcomes.size() != static_cast<size_t>(cases)) {
    ADD_FAILURE() << "upstream's outcomes have " << outcomes.size() << " lines for " << cases
                  << " cases";
    return counts;
  }
  for (int k = 0; k < cases; ++k) {
    const std::filesystem::path submission = dir / absl::StrCat(k, ".sub.csv");
    const absl::StatusOr<double> ours = GradeCsvText(
        id, ReadFileOrFail(submission), ReadFileOrFail(dir / absl::StrCat(k, ".ans.csv")));
    const std::string& outcome = outcomes[k];
    if (absl::StartsWith(outcome, "raise ")) {
      ++counts.raised;
      EXPECT_FALSE(ours.ok()) << submission << ": upstream " << outcome << ", we scored " << *ours;
      continue;
    }
    if (!absl::StartsWith(outcome, "ok ")) {
      ADD_FAILURE() << submission << ": not an outcome: " << outcome;
      continue;
    }
    ++counts.scored;
    if (!ours.ok()) {
      ADD_FAILURE() << submission << ": upstream scored " << outcome << ", we: " << ours.status();
      continue;
    }
    const double theirs = std::strtod(outcome.c_str() + 3, nullptr);
    const bool same = (std::isnan(theirs) && std::isnan(*ours)) || *ours == theirs ||
                      std::fabs(*ours - theirs) <= relative_tolerance * std::fabs(theirs);
    EXPECT_TRUE(same) << submission << ": ours " << *ours << ", upstream " << theirs
                      << " (difference " << *ours - theirs << ")";
  }
  return counts;
}

}  // namespace mlebench::testing
