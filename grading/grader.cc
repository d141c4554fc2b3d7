#include "grading/grader.h"

#include "absl/strings/cord.h"

namespace mlebench {
namespace {
constexpr char kInvalidSubmissionPayload[] = "mlebench/invalid-submission";
}  // namespace

absl::Status InvalidSubmission(std::string_view reason) {
  absl::Status status = absl::InvalidArgumentError(std::string(reason));
  status.SetPayload(kInvalidSubmissionPayload, absl::Cord("1"));
  return status;
}

bool IsInvalidSubmission(const absl::Status& status) {
  return !status.ok() && status.GetPayload(kInvalidSubmissionPayload).has_value();
}

absl::StatusOr<Table> ReadAnswersFile(const CompetitionGrader& grader, const std::string& path) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines:
      return ReadJsonLinesFile(path);
    case AnswersFormat::kCsv:
      break;
  }
  return ReadCsvFile(path, grader.answers_csv);
}

absl::StatusOr<Table> ReadAnswersString(const CompetitionGrader& grader, std::string_view data,
                                        std::string_view source_name) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines:
      return ReadJsonLinesString(data, source_name);
    case AnswersFormat::kCsv:
      break;
  }
  return ReadCsvString(data, source_name, grader.answers_csv);
}

}  // namespace mlebench
