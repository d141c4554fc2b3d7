#include "grading/grader_testing.h"

#include <string>

#include "absl/status/status.h"
#include "base/csv.h"
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

}  // namespace mlebench::testing
