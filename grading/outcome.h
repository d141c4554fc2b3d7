// The two failures a grader tells apart from its own errors: a submission
// upstream's grader rejects, and answers that break what it asserts of them.
// The metrics (grading/metrics) return them too, so this is the one piece of
// //grading below them.
#ifndef MLEBENCH_GRADING_OUTCOME_H_
#define MLEBENCH_GRADING_OUTCOME_H_

#include <string_view>

#include "absl/status/status.h"

namespace mlebench {

// An invalid-submission status: InvalidArgumentError tagged with a payload so
// that it cannot be confused with an internal InvalidArgumentError.
absl::Status InvalidSubmission(std::string_view reason);
bool IsInvalidSubmission(const absl::Status& status);

// A malformed-answers status: FailedPreconditionError("answers are malformed:
// <reason>"). Graders return it when the answers (written by our preparer)
// break what upstream's grade.py asserts of them: the run is an error of the
// harness, never an invalid submission.
absl::Status MalformedAnswers(std::string_view reason);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_OUTCOME_H_
