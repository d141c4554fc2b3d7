#include "grading/grade_submission.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/python_float.h"
#include "base/status_macros.h"

namespace mlebench {

absl::StatusOr<AnswersForGrading> ReadAnswersForGrading(const CompetitionGrader& grader,
                                                        const std::string& answers_file) {
  CsvShape shape;
  absl::StatusOr<TypedTable> table = ReadAnswersFile(grader, answers_file, &shape);
  if (!table.ok()) {
    return absl::Status(table.status().code(),
                        absl::StrCat("cannot read answers: ", table.status().message()));
  }
  AnswersForGrading answers;
  answers.table = *std::move(table);
  std::error_code ec;
  const uintmax_t bytes = std::filesystem::file_size(answers_file, ec);
  answers.file_bytes = ec ? 0 : static_cast<int64_t>(bytes);
  // The whole file's shape, columns the grader does not read included.
  answers.cells = (shape.rows + 1) * shape.columns;
  answers.columns = shape.columns;
  answers.limits = GradingLimitsFor(answers.file_bytes, answers.cells, answers.columns);
  return answers;
}

namespace {
CompetitionReport NoSubmissionReport(const CompetitionGrader& grader,
                                     const MedalThresholds& thresholds,
                                     const ReportContext& context) {
  return MakeReport(grader.id, false, std::nullopt,
                    "no submission: expected a .csv file at the submission path", thresholds,
                    context);
}
}  // namespace

bool SubmissionFileExists(const std::string& submission_file) {
  std::error_code ec;
  const std::filesystem::path path(submission_file);
  return std::filesystem::is_regular_file(path, ec) &&
         absl::AsciiStrToLower(path.extension().string()) == ".csv";
}

absl::StatusOr<CompetitionReport> GradeSubmissionAgainst(const CompetitionGrader& grader,
                                                         const std::string& submission_file,
                                                         const AnswersForGrading& answers,
                                                         const MedalThresholds& thresholds,
                                                         const ReportContext& context) {
  if (!SubmissionFileExists(submission_file)) {
    return NoSubmissionReport(grader, thresholds, context);
  }
  const auto invalid = [&](absl::string_view reason) {
    return MakeReport(grader.id, true, std::nullopt, std::string(reason), thresholds, context);
  };
  // The size first: a file beyond the limit is not opened at all.
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(submission_file, ec);
  if (!ec && size > static_cast<uintmax_t>(answers.limits.max_submission_bytes)) {
    return invalid(SubmissionBytesOverLimit(static_cast<int64_t>(size), answers.file_bytes,
                                            answers.limits));
  }
  CsvReadOptions options = grader.submission_csv;
  options.max_bytes = std::min(options.max_bytes, answers.limits.max_submission_bytes);
  options.max_cells = answers.limits.max_submission_cells;
  options.max_columns = answers.limits.max_submission_columns;
  absl::StatusOr<TypedTable> submission = ReadTypedCsvFile(submission_file, options);
  if (absl::IsResourceExhausted(submission.status())) {
    return invalid(SubmissionShapeOverLimit(submission.status().message(), answers.cells,
                                            answers.columns, answers.limits));
  }
  if (!submission.ok()) {
    return invalid(
        absl::StrCat("submission is not a readable CSV: ", submission.status().message()));
  }
  absl::StatusOr<double> score = GradeTables(grader, *submission, answers.table);
  if (!score.ok()) {
    if (IsInvalidSubmission(score.status())) return invalid(score.status().message());
    return absl::Status(score.status().code(),
                        absl::StrCat("grader for ", grader.id,
                                     " failed: ", score.status().message()));
  }
  // A NaN score (e.g. the correlation of a constant column) is what upstream
  // reports too: valid, no medal (every comparison with NaN is false).
  return MakeReport(grader.id, true, RoundPython(*score, 5), "", thresholds, context);
}

absl::StatusOr<CompetitionReport> GradeSubmissionFile(const CompetitionGrader& grader,
                                                      const std::string& submission_file,
                                                      const std::string& answers_file,
                                                      const MedalThresholds& thresholds,
                                                      const ReportContext& context) {
  if (!SubmissionFileExists(submission_file)) {
    return NoSubmissionReport(grader, thresholds, context);
  }
  absl::StatusOr<AnswersForGrading> answers = ReadAnswersForGrading(grader, answers_file);
  if (!answers.ok()) return answers.status();
  return GradeSubmissionAgainst(grader, submission_file, *answers, thresholds, context);
}

absl::StatusOr<GradeSetup> SetUpGrade(std::string_view competition_id,
                                      const std::string& leaderboard_csv,
                                      const std::string& thresholds_csv, const std::string& agent,
                                      const std::string& seed) {
  ASSIGN_OR_RETURN(ChosenThresholds chosen,
                   ChooseThresholds(competition_id, leaderboard_csv, thresholds_csv));
  GradeSetup setup;
  setup.thresholds = chosen.thresholds;
  setup.context.thresholds_source = chosen.source;
  setup.context.agent = agent;
  if (!absl::SimpleAtoi(seed, &setup.context.seed)) {
    return absl::InvalidArgumentError("--seed must be an integer");
  }
  return setup;
}

}  // namespace mlebench
