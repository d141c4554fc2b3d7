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

// A grader-level differential test against upstream's grade(). `script` is
// Python run with the reference environment (ReferencePython(): upstream's
// pinned pandas, scikit-learn, ...) as `script DIR CASES`; for each k < CASES
// it writes DIR/<k>.sub.csv and DIR/<k>.ans.csv, grades them as upstream's
// grade_csv does (its read_csv: pd.read_csv(float_precision="round_trip") of
// both; then grade()), and writes one line per
// case to DIR/scores.txt: "ok <float.hex() of the score>" or "raise <class>"
// (upstream makes any exception an invalid submission). Each case is graded
// with the grader `id`; the outcomes must agree, scores within
// `relative_tolerance` (0: bit for bit, NaN with NaN). Returns how many cases
// were scored and how many raised, for the caller's coverage checks.
struct UpstreamGradeComparison {
  int scored = 0;
  int raised = 0;
};
UpstreamGradeComparison CompareWithUpstreamGrade(std::string_view id, std::string_view script,
                                                 int cases, double relative_tolerance = 0);

}  // namespace mlebench::testing

#endif  // MLEBENCH_GRADING_GRADER_TESTING_H_
