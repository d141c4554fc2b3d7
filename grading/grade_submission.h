// The grade step of the pipeline: one submission file graded against a
// competition's answers into a CompetitionReport, as upstream's `grade_csv`
// does (report.h writes and reads the reports).
#ifndef MLEBENCH_GRADING_GRADE_SUBMISSION_H_
#define MLEBENCH_GRADING_GRADE_SUBMISSION_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"
#include "grading/medals.h"
#include "grading/report.h"
#include "grading/report.pb.h"

namespace mlebench {

// A competition's answers, read for grading, and what they allow a
// submission to cost (grading_limits.h).
struct AnswersForGrading {
  TypedTable table;
  int64_t file_bytes = 0;
  // The whole file's rows x columns (the header row included) and columns,
  // columns the grader does not read (answers_csv.only_columns) included.
  int64_t cells = 0;
  int64_t columns = 0;
  GradingLimits limits;
};

// Reads `answers_file` in the grader's answers format. Errors are internal
// (the answers are ours), with "cannot read answers: " in front.
absl::StatusOr<AnswersForGrading> ReadAnswersForGrading(const CompetitionGrader& grader,
                                                        const std::string& answers_file);

// Whether `submission_file` counts as a submission, as upstream's
// `grade_csv` decides: a regular file whose extension is ".csv" (any case).
bool SubmissionFileExists(const std::string& submission_file);

// Grades one submission file the way upstream's `grade_csv` does:
//  - the submission exists iff SubmissionFileExists;
//  - the score is the grader's, rounded with Python's round(score, 5);
//  - an invalid submission (including a submission CSV that cannot be read)
//    has no score and records why;
//  - medals come from `thresholds` via RankScore.
// Beyond upstream, a submission larger than the answers allow
// (answers.limits: more bytes, or more cells) is invalid, with the limit it
// broke as the reason, and is read no further than needed to tell.
// Errors (non-OK) are internal: a grader failing for a reason that is not
// the submission's fault.
absl::StatusOr<CompetitionReport> GradeSubmissionAgainst(const CompetitionGrader& grader,
                                                         const std::string& submission_file,
                                                         const AnswersForGrading& answers,
                                                         const MedalThresholds& thresholds,
                                                         const ReportContext& context);

// The two steps above in one: a missing submission is reported without
// reading the answers (as upstream does); otherwise unreadable answers are
// an error.
absl::StatusOr<CompetitionReport> GradeSubmissionFile(const CompetitionGrader& grader,
                                                      const std::string& submission_file,
                                                      const std::string& answers_file,
                                                      const MedalThresholds& thresholds,
                                                      const ReportContext& context);

// What a grade command (the grade action's grade_main.cc, the CLI's
// `mlebench grade`) sets up from its flags before grading: the thresholds
// ChooseThresholds picks (`leaderboard_csv` if not empty, else
// `thresholds_csv`) and a report context with their source, `agent` and the
// seed parsed from `seed` ("--seed must be an integer" InvalidArgumentError
// otherwise, after any error of ChooseThresholds). The caller fills in the
// context's dataset, submission path and creation time.
struct GradeSetup {
  MedalThresholds thresholds;
  ReportContext context;
};
absl::StatusOr<GradeSetup> SetUpGrade(std::string_view competition_id,
                                      const std::string& leaderboard_csv,
                                      const std::string& thresholds_csv, const std::string& agent,
                                      const std::string& seed);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_GRADE_SUBMISSION_H_
