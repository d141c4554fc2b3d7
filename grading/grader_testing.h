#ifndef MLEBENCH_GRADING_GRADER_TESTING_H_
#define MLEBENCH_GRADING_GRADER_TESTING_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"

// Helpers for graders' GoogleTests (testonly).
namespace mlebench::testing {

// The grader registered as `id`. A missing registration fails the test and
// returns a grader whose every grade is an internal error.
const CompetitionGrader& RegisteredGrader(std::string_view id);

// Reads `submission_csv` (CSV text) and `answers_csv` (the answers file's
// text: CSV, or JSON lines for an AnswersFormat::kJsonLines grader) with the
// grader's read options, as a grade action reads the files, and grades them. Text that does
// not parse fails the test.
absl::StatusOr<double> GradeCsvText(std::string_view id, std::string_view submission_csv,
                                    std::string_view answers_csv);

// Expects an invalid-submission status whose reason contains `needle`.
void ExpectInvalid(const absl::StatusOr<double>& result, std::string_view needle);

}  // namespace mlebench::testing

#endif  // MLEBENCH_GRADING_GRADER_TESTING_H_
