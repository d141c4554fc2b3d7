#include "grading/gating.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "grading/python_float.h"

namespace mlebench {
namespace {

constexpr std::pair<GatingPolicy, std::string_view> kNames[] = {
    {GatingPolicy::kNone, "none"},     {GatingPolicy::kValid, "valid"},
    {GatingPolicy::kMedian, "median"}, {GatingPolicy::kBronze, "bronze"},
    {GatingPolicy::kSilver, "silver"}, {GatingPolicy::kGold, "gold"},
};

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

std::string_view MedalName(const CompetitionReport& r) {
  if (r.gold_medal()) return "gold";
  if (r.silver_medal()) return "silver";
  if (r.bronze_medal()) return "bronze";
  return "none";
}

GateDecision Gate(const CompetitionReport& r, GatingPolicy policy) {
  auto fail = [](std::string reason) { return GateDecision{false, std::move(reason)}; };
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
                        const GateDecision& decision) {
  std::string validity = r.valid_submission()    ? "valid"
                         : r.submission_exists() ? "INVALID"
                                                 : "NO SUBMISSION";
  return absl::StrCat(
      r.competition_id(), ": score ", ScoreText(r), " (",
      r.is_lower_better() ? "lower" : "higher", " is better), ", validity, ", medal ",
      std::string(MedalName(r)), ", above median ", r.above_median() ? "yes" : "no", " [gold ",
      FormatPythonFloat(r.gold_threshold()), " silver ", FormatPythonFloat(r.silver_threshold()),
      " bronze ", FormatPythonFloat(r.bronze_threshold()), " median ",
      FormatPythonFloat(r.median_threshold()), "] gate ", std::string(GatingPolicyName(policy)), ": ",
      decision.pass ? "PASS" : absl::StrCat("FAIL (", decision.reason, ")"));
}

}  // namespace mlebench
