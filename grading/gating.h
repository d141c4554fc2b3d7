#ifndef MLEBENCH_GRADING_GATING_H_
#define MLEBENCH_GRADING_GATING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/report.pb.h"

namespace mlebench {

// When a competition test passes (--//competitions:gate):
//   kNone   a report was produced (whatever it says);
//   kValid  the submission is valid (the default);
//   kSample the score is strictly better than the sample submission's
//           (report.sample_score; a report without one fails);
//   kMedian the score is strictly better than the leaderboard median;
//   kBronze / kSilver / kGold  at least that medal.
enum class GatingPolicy { kNone, kValid, kSample, kMedian, kBronze, kSilver, kGold };

absl::StatusOr<GatingPolicy> ParseGatingPolicy(std::string_view name);
std::string_view GatingPolicyName(GatingPolicy policy);

// What the user asked the agent to run under (--//agent_runner:isolation,
// given to check_report as --isolation_requested). kUnspecified: not said.
enum class IsolationRequest { kUnspecified, kBwrap, kNone };

// "bwrap" or "none" (kUnspecified has no name: "" gives an error).
absl::StatusOr<IsolationRequest> ParseIsolationRequest(std::string_view name);
// "bwrap", "none"; "" for kUnspecified.
std::string_view IsolationRequestName(IsolationRequest request);

struct GateOptions {
  IsolationRequest isolation_requested = IsolationRequest::kUnspecified;
  // The user asked for the host's whole network (--//agent_runner:network=
  // unconfined, given to check_report as --network_requested unconfined).
  bool unconfined_network_requested = false;
};

struct GateDecision {
  bool pass = false;
  std::string reason;  // why it failed; empty when it passed
};

// Decides by `policy` (above), after an isolation check that applies to every
// policy, kNone included, when report.isolation() is known (non-empty):
//  - isolation_requested kBwrap and the run did not have "bwrap": FAIL (the
//    requested isolation was not applied);
//  - the run did not have "bwrap" (e.g. "none") and isolation_requested is
//    not kNone: FAIL (an unisolated run is accepted only when asked for).
// An empty report.isolation() (unknown: the CLI grading a submission made
// elsewhere, no run record) is not checked, as before isolation was recorded.
// Then a network check, the same way: a run with the host's whole network
// ("unconfined", or an older record's "allow") FAILs unless
// unconfined_network_requested or isolation_requested kNone (which has no
// network of its own to confine).
GateDecision Gate(const CompetitionReport& report, GatingPolicy policy,
                  const GateOptions& options = {});

// What a run really had, read from its run record: agent_runner's one-line
// JSON object, whose "isolation" is "bwrap" or "none" and "network" "deny",
// "allowlist" or "unconfined" ("allow", an older runner's name, reads as
// unconfined); other keys are ignored.
struct RunEnvironment {
  std::string isolation;
  std::string network;
  // network allowlist: the allowed host:port pairs; requests made and
  // refused.
  std::vector<std::string> allowed_hosts;
  int64_t network_requests = 0;
  int64_t network_requests_refused = 0;
  int64_t network_requests_failed = 0;
  // The rest of the record, where it has them (records of older runners do
  // not): copied into the report's fields of the same names (wall_seconds
  // from duration_s, gpus from the number of gpu_ids).
  std::string agent_digest;
  std::string environment_digest;
  int64_t cpus = 0;
  int64_t memory_limit_bytes = 0;
  int64_t gpus = 0;
  int64_t processes_limit = 0;
  double wall_seconds = 0;
  double cpu_seconds = 0;
  int64_t memory_peak_bytes = -1;
  std::string ended_by;
  int64_t time_limit_s = 0;  // 0: unknown
  // How the agent's main process ended, where the record says.
  std::optional<int64_t> exit_code;
  std::optional<int64_t> signal;
};

// Why a run that left no valid submission ended, in words, e.g. "the agent
// exited with status 1", "the agent was stopped at its time limit", "the
// kernel's OOM killer ended the agent at its memory limit (1073741824
// bytes)"; empty when the record does not say.
std::string DescribeRunEnd(const RunEnvironment& env);

// Sets the report's isolation, network, agent digest, budget and usage from
// `env`.
void AddRunEnvironment(const RunEnvironment& env, CompetitionReport& report);
// Errors (InvalidArgument) for text that is not a JSON object, and for a
// missing key or a value that is not one of those strings.
absl::StatusOr<RunEnvironment> RunEnvironmentFromRecord(std::string_view run_record_json);

// "gold", "silver", "bronze" or "none".
std::string_view MedalName(const CompetitionReport& report);

// The regression check against a baseline (--//competitions:baseline): the
// reason `report` fails because its medal is below the one `baseline` (the
// same competition's report from an earlier run) had - gold above silver
// above bronze above none - e.g. "medal dropped from silver in the baseline
// to bronze (score 0.71, baseline 0.83)"; nullopt when it is not lower.
std::optional<std::string> MedalRegression(const CompetitionReport& report,
                                           const CompetitionReport& baseline);

// Sets report.sample_score from the sample submission's report, and
// report.beats_sample: the report's score is strictly better (in the
// metric's direction) than a sample score that is a number; a sample score of
// NaN is beaten by any number.
void AddSampleScore(const CompetitionReport& sample, CompetitionReport& report);

// The report a competition test ends with for one seed: the graded report
// (the grade action's, which knows nothing of the run) with the agent's label
// and the seed, what the run record says (AddRunEnvironment; when given) and
// the sample submission's score (AddSampleScore; when given). `run_end` (may
// be null) gets DescribeRunEnd. An unreadable record is an error: a run whose
// isolation cannot be told must not pass for one that had it.
absl::StatusOr<CompetitionReport> CompleteReport(
    const CompetitionReport& graded, const std::string& agent, int64_t seed,
    const std::optional<std::string>& run_record_json,
    const std::optional<CompetitionReport>& sample, std::string* run_end = nullptr);

// One human-readable line, e.g.
// "spaceship-titanic: score 0.79 (higher is better), valid, medal none, above
//  median no [gold 0.82066 silver 0.81388 bronze 0.80967 median 0.79565]
//  isolation bwrap network deny gate valid: PASS".
// Text from the report - the invalid reason above all, which may quote the
// submission - is shown through EscapeForConsole (base/display_text.h), the
// reason cut at 500 bytes: the line is always one line, with no control
// characters. "isolation X" and "network Y" appear only when known (non-empty);
// "isolation none (requested)" when the run had none because the user asked
// for it (options.isolation_requested kNone).
std::string SummaryLine(const CompetitionReport& report, GatingPolicy policy,
                        const GateDecision& decision, const GateOptions& options = {});

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_GATING_H_
