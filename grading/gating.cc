#include "grading/gating.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/display_text.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

namespace mlebench {
namespace {

constexpr std::pair<GatingPolicy, std::string_view> kNames[] = {
    {GatingPolicy::kNone, "none"},     {GatingPolicy::kValid, "valid"},
    {GatingPolicy::kSample, "sample"}, {GatingPolicy::kMedian, "median"},
    {GatingPolicy::kBronze, "bronze"},
    {GatingPolicy::kSilver, "silver"}, {GatingPolicy::kGold, "gold"},
};

constexpr std::pair<IsolationRequest, std::string_view> kIsolationNames[] = {
    {IsolationRequest::kBwrap, "bwrap"},
    {IsolationRequest::kNone, "none"},
};

// The isolation check of Gate (see gating.h); nullopt when it passes.
std::optional<std::string> IsolationFailure(const CompetitionReport& r,
                                            const GateOptions& options) {
  if (r.isolation().empty() || r.isolation() == "bwrap") return std::nullopt;
  if (options.isolation_requested == IsolationRequest::kBwrap) {
    return absl::StrCat(
        "the requested isolation bwrap was not applied: the agent ran with isolation ",
        r.isolation());
  }
  if (options.isolation_requested == IsolationRequest::kNone) return std::nullopt;
  return absl::StrCat("the agent ran without isolation (isolation ", r.isolation(),
                      "); pass --//agent_runner:isolation=none to accept unisolated runs");
}

// The network check of Gate (see gating.h); nullopt when it passes.
std::optional<std::string> NetworkFailure(const CompetitionReport& r, const GateOptions& options) {
  if (r.network() != "unconfined" && r.network() != "allow") return std::nullopt;
  if (options.unconfined_network_requested ||
      options.isolation_requested == IsolationRequest::kNone) {
    return std::nullopt;
  }
  return "the agent ran with the host's whole network (network unconfined: loopback, private "
         "ranges and any cache on them included); pass --//agent_runner:network=unconfined to "
         "accept such runs, or give the agent an allow-list (network allowlist)";
}

std::string ScoreText(const CompetitionReport& r) {
  if (r.score().kind_case() != google::protobuf::Value::kNumberValue) return "none";
  return FormatPythonFloat(r.score().number_value());
}

}  // namespace

absl::StatusOr<GatingPolicy> ParseGatingPolicy(std::string_view name) {
  for (const auto& [policy, n] : kNames) {
    if (n == name) return policy;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown gating policy '", std::string(name), "' (none, valid, median, bronze, silver, gold)"));
}

std::string_view GatingPolicyName(GatingPolicy policy) {
  for (const auto& [p, n] : kNames) {
    if (p == policy) return n;
  }
  return "?";
}

absl::StatusOr<IsolationRequest> ParseIsolationRequest(std::string_view name) {
  for (const auto& [request, n] : kIsolationNames) {
    if (n == name) return request;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown isolation '", std::string(name), "' (bwrap, none)"));
}

std::string_view IsolationRequestName(IsolationRequest request) {
  for (const auto& [r, n] : kIsolationNames) {
    if (r == request) return n;
  }
  return "";
}

absl::StatusOr<RunEnvironment> RunEnvironmentFromRecord(std::string_view run_record_json) {
  google::protobuf::Struct record;
  if (auto parsed = google::protobuf::util::JsonStringToMessage(run_record_json, &record);
      !parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("run record is not a JSON object: ", std::string(parsed.message())));
  }
  // A missing or unexpected value must not pass for an isolated run.
  auto get = [&](const std::string& key, const char* a,
                 const char* b) -> absl::StatusOr<std::string> {
    auto it = record.fields().find(key);
    if (it == record.fields().end()) {
      return absl::InvalidArgumentError(absl::StrCat("run record lacks \"", key, "\""));
    }
    const google::protobuf::Value& v = it->second;
    if (v.kind_case() != google::protobuf::Value::kStringValue ||
        (v.string_value() != a && v.string_value() != b)) {
      return absl::InvalidArgumentError(
          absl::StrCat("run record's \"", key, "\" must be \"", a, "\" or \"", b, "\""));
    }
    return v.string_value();
  };
  ASSIGN_OR_RETURN(std::string isolation, get("isolation", "bwrap", "none"));
  std::string network;
  if (auto it = record.fields().find("network");
      it != record.fields().end() &&
      it->second.kind_case() == google::protobuf::Value::kStringValue) {
    network = it->second.string_value();
  }
  if (network == "allow") network = "unconfined";
  if (network != "deny" && network != "allowlist" && network != "unconfined") {
    return absl::InvalidArgumentError(
        "run record's \"network\" must be \"deny\", \"allowlist\" or \"unconfined\"");
  }
  RunEnvironment env{.isolation = std::move(isolation), .network = std::move(network)};
  if (auto it = record.fields().find("allowed_hosts");
      it != record.fields().end() &&
      it->second.kind_case() == google::protobuf::Value::kListValue) {
    for (const google::protobuf::Value& host : it->second.list_value().values()) {
      if (host.kind_case() == google::protobuf::Value::kStringValue) {
        env.allowed_hosts.push_back(host.string_value());
      }
    }
  }
  const auto number = [&](const std::string& key, double fallback) {
    auto it = record.fields().find(key);
    return it != record.fields().end() &&
                   it->second.kind_case() == google::protobuf::Value::kNumberValue
               ? it->second.number_value()
               : fallback;
  };
  const auto text = [&](const std::string& key) {
    auto it = record.fields().find(key);
    return it != record.fields().end() &&
                   it->second.kind_case() == google::protobuf::Value::kStringValue
               ? it->second.string_value()
               : std::string();
  };
  env.agent_digest = text("agent_digest");
  env.environment_digest = text("environment_digest");
  env.cpus = static_cast<int64_t>(number("cpus", 0));
  env.memory_limit_bytes = static_cast<int64_t>(number("memory_limit_bytes", 0));
  const std::string gpu_ids = text("gpu_ids");
  env.gpus = gpu_ids.empty() ? 0 : 1 + std::count(gpu_ids.begin(), gpu_ids.end(), ',');
  env.processes_limit = static_cast<int64_t>(number("processes_limit", 0));
  env.wall_seconds = number("duration_s", 0);
  env.cpu_seconds = number("cpu_seconds", 0);
  env.memory_peak_bytes = static_cast<int64_t>(number("memory_peak_bytes", -1));
  env.ended_by = text("ended_by");
  env.time_limit_s = static_cast<int64_t>(number("time_limit_s", 0));
  env.network_requests = static_cast<int64_t>(number("connections_total", 0));
  env.network_requests_refused = static_cast<int64_t>(number("connections_refused", 0));
  env.network_requests_failed = static_cast<int64_t>(number("connections_failed", 0));
  for (const auto& [key, target] : {std::pair<const char*, std::optional<int64_t>*>{
                                        "exit_code", &env.exit_code},
                                    {"signal", &env.signal}}) {
    auto it = record.fields().find(key);
    if (it != record.fields().end() &&
        it->second.kind_case() == google::protobuf::Value::kNumberValue) {
      *target = static_cast<int64_t>(it->second.number_value());
    }
  }
  return env;
}

namespace {
int MedalLevel(const CompetitionReport& r) {
  return r.gold_medal() ? 3 : r.silver_medal() ? 2 : r.bronze_medal() ? 1 : 0;
}
}  // namespace

std::optional<std::string> MedalRegression(const CompetitionReport& report,
                                           const CompetitionReport& baseline) {
  if (MedalLevel(report) >= MedalLevel(baseline)) return std::nullopt;
  return absl::StrCat("medal dropped from ", std::string(MedalName(baseline)), " in the baseline to ",
                      std::string(MedalName(report)), " (score ", ScoreText(report), ", baseline ",
                      ScoreText(baseline), ")");
}

absl::StatusOr<CompetitionReport> CompleteReport(
    const CompetitionReport& graded, const std::string& agent, int64_t seed,
    const std::optional<std::string>& run_record_json,
    const std::optional<CompetitionReport>& sample, std::string* run_end) {
  CompetitionReport report = graded;
  report.set_agent(agent);
  report.set_seed(seed);
  if (run_record_json.has_value()) {
    ASSIGN_OR_RETURN(const RunEnvironment env, RunEnvironmentFromRecord(*run_record_json));
    AddRunEnvironment(env, report);
    if (run_end != nullptr) *run_end = DescribeRunEnd(env);
  }
  if (sample.has_value()) AddSampleScore(*sample, report);
  return report;
}

std::string DescribeRunEnd(const RunEnvironment& env) {
  if (env.ended_by == "time_limit") {
    return env.time_limit_s > 0
               ? absl::StrCat("the agent timed out after ", env.time_limit_s,
                              " s (its time limit) and was stopped")
               : std::string("the agent was stopped at its time limit");
  }
  if (env.ended_by == "workspace_quota") {
    return "the agent was stopped: its workspace outgrew its disk quota";
  }
  if (env.ended_by == "proxy_log_quota") {
    return "the agent was stopped: its requests through the egress proxy outgrew the proxy's log "
           "limit";
  }
  if (env.ended_by == "memory_limit") {
    return absl::StrCat("the kernel's OOM killer ended the agent at its memory limit (",
                        env.memory_limit_bytes, " bytes)");
  }
  if (env.exit_code.has_value()) {
    return absl::StrCat("the agent exited with status ", *env.exit_code);
  }
  if (env.signal.has_value()) return absl::StrCat("the agent was killed by signal ", *env.signal);
  return "";
}

void AddRunEnvironment(const RunEnvironment& env, CompetitionReport& report) {
  report.set_isolation(env.isolation);
  report.set_network(env.network);
  for (const std::string& host : env.allowed_hosts) report.add_allowed_hosts(host);
  report.set_network_requests(env.network_requests);
  report.set_network_requests_refused(env.network_requests_refused);
  report.set_network_requests_failed(env.network_requests_failed);
  report.set_agent_digest(env.agent_digest);
  report.set_environment_digest(env.environment_digest);
  report.set_cpus(env.cpus);
  report.set_memory_limit_bytes(env.memory_limit_bytes);
  report.set_gpus(env.gpus);
  report.set_processes_limit(env.processes_limit);
  report.set_wall_seconds(env.wall_seconds);
  report.set_cpu_seconds(env.cpu_seconds);
  report.set_memory_peak_bytes(env.memory_peak_bytes);
  report.set_ended_by(env.ended_by);
}

std::string_view MedalName(const CompetitionReport& r) {
  if (r.gold_medal()) return "gold";
  if (r.silver_medal()) return "silver";
  if (r.bronze_medal()) return "bronze";
  return "none";
}

GateDecision Gate(const CompetitionReport& r, GatingPolicy policy, const GateOptions& options) {
  auto fail = [](std::string reason) { return GateDecision{false, std::move(reason)}; };
  if (std::optional<std::string> why = IsolationFailure(r, options)) return fail(*std::move(why));
  if (std::optional<std::string> why = NetworkFailure(r, options)) return fail(*std::move(why));
  if (policy == GatingPolicy::kNone) return {true, ""};
  if (!r.submission_exists()) return fail("the agent produced no submission.csv");
  if (!r.valid_submission()) return fail(absl::StrCat("invalid submission: ", r.invalid_reason()));
  switch (policy) {
    case GatingPolicy::kNone:
    case GatingPolicy::kValid:
      return {true, ""};
    case GatingPolicy::kSample:
      if (r.beats_sample()) return {true, ""};
      if (r.sample_score().kind_case() != google::protobuf::Value::kNumberValue) {
        return fail("the sample submission has no score to beat");
      }
      return fail(absl::StrCat("score ", ScoreText(r), " is not better than the sample "
                               "submission's ", FormatPythonFloat(r.sample_score().number_value())));
    case GatingPolicy::kMedian:
      if (r.above_median()) return {true, ""};
      return fail(absl::StrCat("score ", ScoreText(r), " is not better than the median ",
                               FormatPythonFloat(r.median_threshold())));
    case GatingPolicy::kBronze:
      if (r.any_medal()) return {true, ""};
      return fail(absl::StrCat("no medal: score ", ScoreText(r), ", bronze needs ",
                               FormatPythonFloat(r.bronze_threshold())));
    case GatingPolicy::kSilver:
      if (r.gold_medal() || r.silver_medal()) return {true, ""};
      return fail(absl::StrCat("medal ", std::string(MedalName(r)), ": score ", ScoreText(r),
                               ", silver needs ", FormatPythonFloat(r.silver_threshold())));
    case GatingPolicy::kGold:
      if (r.gold_medal()) return {true, ""};
      return fail(absl::StrCat("medal ", std::string(MedalName(r)), ": score ", ScoreText(r),
                               ", gold needs ", FormatPythonFloat(r.gold_threshold())));
  }
  return fail("unknown policy");
}

void AddSampleScore(const CompetitionReport& sample, CompetitionReport& report) {
  *report.mutable_sample_score() = sample.score();
  const bool numbers = sample.score().kind_case() == google::protobuf::Value::kNumberValue &&
                       report.score().kind_case() == google::protobuf::Value::kNumberValue;
  const double mine = report.score().number_value();
  const double theirs = sample.score().number_value();
  // A sample score of NaN (a correlation of constant predictions) is the
  // worst there is: any number beats it.
  const bool better = std::isnan(theirs) ? !std::isnan(mine)
                      : report.is_lower_better() ? mine < theirs
                                                 : mine > theirs;
  report.set_beats_sample(numbers && report.valid_submission() && better);
}

std::string SummaryLine(const CompetitionReport& r, GatingPolicy policy,
                        const GateDecision& decision, const GateOptions& options) {
  std::string environment;
  if (!r.isolation().empty()) {
    const bool accepted =
        r.isolation() != "bwrap" && options.isolation_requested == IsolationRequest::kNone;
    absl::StrAppend(&environment, " isolation ", EscapeForConsole(r.isolation(), 20),
                    accepted ? " (requested)" : "");
  }
  if (!r.network().empty()) {
    absl::StrAppend(&environment, " network ", EscapeForConsole(r.network(), 20));
    if (r.network() == "allowlist") {
      absl::StrAppend(&environment, " (", r.network_requests(),
                      r.network_requests() == 1 ? " request, " : " requests, ",
                      r.network_requests_refused(), " refused",
                      r.network_requests_failed() > 0
                          ? absl::StrCat(", ", r.network_requests_failed(), " failed")
                          : std::string(),
                      ")");
    }
  }
  if (r.sample_score().kind_case() == google::protobuf::Value::kNumberValue) {
    absl::StrAppend(&environment, " sample ", FormatPythonFloat(r.sample_score().number_value()),
                    " beaten ", r.beats_sample() ? "yes" : "no");
  }
  std::string validity = r.valid_submission()    ? "valid"
                         : r.submission_exists() ? "INVALID"
                                                 : "NO SUBMISSION";
  // The reason may quote the submission, which an agent wrote: shown
  // escaped and cut, like everything else a report holds.
  return absl::StrCat(
      EscapeForConsole(r.competition_id(), 200), ": score ", ScoreText(r), " (",
      r.is_lower_better() ? "lower" : "higher", " is better), ", validity, ", medal ",
      std::string(MedalName(r)), ", above median ", r.above_median() ? "yes" : "no", " [gold ",
      FormatPythonFloat(r.gold_threshold()), " silver ", FormatPythonFloat(r.silver_threshold()),
      " bronze ", FormatPythonFloat(r.bronze_threshold()), " median ",
      FormatPythonFloat(r.median_threshold()), "]", environment, " gate ",
      std::string(GatingPolicyName(policy)), ": ",
      decision.pass ? "PASS" : absl::StrCat("FAIL (", EscapeForConsole(decision.reason, 500), ")"));
}

}  // namespace mlebench
