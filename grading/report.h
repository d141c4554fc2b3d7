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
