#include "grading/outcome.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

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

absl::Status MalformedAnswers(std::string_view reason) {
  return absl::FailedPreconditionError(
      absl::StrCat("answers are malformed: ", std::string(reason)));
}

}  // namespace mlebench
