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

}  // namespace mlebench
