#ifndef MLEBENCH_GRADING_REPORT_H_
#define MLEBENCH_GRADING_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/struct.pb.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"
#include "grading/medals.h"
#include "grading/report.pb.h"

namespace mlebench {

// Who and what produced a submission, and where its thresholds came from.
struct ReportContext {
  std::string agent;
  int64_t seed = 0;
  std::string dataset = "synthetic";  // or "kaggle"
  std::string thresholds_source = "embedded";  // or "leaderboard"
  // What to record as `submission_path` (a stable, relative path in build
  // actions, so that reports do not depend on where the build ran).
  std::string submission_path;
  // ISO 8601 time; empty in build actions (deterministic outputs).
  std::string created_at;
};

// A competition's answers, read for grading, and what they allow a
// submission to cost (grading_limits.h).
struct AnswersForGrading {
  TypedTable table;
  int64_t file_bytes = 0;
  int64_t cells = 0;  // rows x columns, the header row included
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

// Assembles a report from a grading outcome (score is already rounded;
// std::nullopt for a missing or invalid submission).
CompetitionReport MakeReport(std::string_view competition_id, bool submission_exists,
                             std::optional<double> score, std::string_view invalid_reason,
                             const MedalThresholds& thresholds, const ReportContext& context);

// Upstream's aggregated report over several competitions (`mlebench grade`).
AggregatedReport Aggregate(const std::vector<CompetitionReport>& reports);

// JSON in the style of Python's json.dumps(obj, indent=indent): keys in proto
// field-number order (upstream's key order for the upstream fields), floats
// as Python repr ("1.0"), `null` for a missing score, non-ASCII escaped as
// \uXXXX. Deterministic. indent = 0 gives one line with ", " and ": "
// separators, as json.dumps does without indent.
std::string ToPythonJson(const google::protobuf::Message& message, int indent = 2);

// Parses a report written by ToPythonJson (or by upstream's to_dict()),
// including Python's NaN / Infinity / -Infinity number tokens.
absl::StatusOr<CompetitionReport> ReportFromJson(std::string_view json);

// Python's json writes non-finite floats as bare NaN, Infinity and -Infinity,
// which JSON parsers reject. Returns `json` with those tokens (outside
// strings) turned into the strings "NaN", "Infinity", "-Infinity", which
// protobuf's parser accepts for double fields; NonFiniteNumber() reads them
// back where a google.protobuf.Value holds one.
std::string QuoteNonFiniteNumbers(std::string_view json);
std::optional<double> NonFiniteNumber(const google::protobuf::Value& value);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_REPORT_H_
