#ifndef MLEBENCH_GRADING_GRADER_TESTING_H_
#define MLEBENCH_GRADING_GRADER_TESTING_H_

#include <filesystem>
#include <string>
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

// Grades the cases a grader-level differential test wrote into `dir`
// (<k>.sub.csv and <k>.ans.csv for k < cases, see
// //tools/upstream_grade:driver.py) with the grader `id`, and expects the
// outcomes upstream's grade() had on them, one line per case in
// `upstream_outcomes`: "ok <float.hex() of the score>", or "raise <class>" (an
// invalid submission). Scores agree within `relative_tolerance` (0: bit for
// bit, NaN with NaN). Returns how many cases upstream scored and how many it
// rejected, for the caller's coverage checks.
struct UpstreamGradeComparison {
  int scored = 0;
  int raised = 0;
};
UpstreamGradeComparison CompareWithUpstreamOutcomes(std::string_view id,
                                                    const std::filesystem::path& dir,
                                                    const std::string& upstream_outcomes, int cases,
                                                    double relative_tolerance = 0);

}  // namespace mlebench::testing

#endif  // MLEBENCH_GRADING_GRADER_TESTING_H_
