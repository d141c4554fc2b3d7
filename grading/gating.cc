#include "grading/gating.h"

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
    {GatingPolicy::kMedian, "median"}, {GatingPolicy::kBronze, "bronze"},
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
  ASSIGN_OR_RETURN(std::string network, get("network", "allow", "deny"));
  return RunEnvironment{std::move(isolation), std::move(network)};
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
  if (policy == GatingPolicy::kNone) return {true, ""};
  if (!r.submission_exists()) return fail("the agent produced no submission.csv");
  if (!r.valid_submission()) return fail(absl::StrCat("invalid submission: ", r.invalid_reason()));
  switch (policy) {
    case GatingPolicy::kNone:
    case GatingPolicy::kValid:
      return {true, ""};
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
