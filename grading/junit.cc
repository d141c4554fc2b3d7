#include "grading/junit.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_format.h"
#include "base/display_text.h"
#include "base/python_float.h"

namespace mlebench {

namespace {

std::string TestCaseXml(const CompetitionReport& r, GatingPolicy policy,
                        const GateDecision& decision, std::string_view summary,
                        const GateOptions& options, const std::string& name) {
  const std::string id = EscapeForXml(r.competition_id());
  const bool scored = r.score().kind_case() == google::protobuf::Value::kNumberValue;
  std::string props;
  auto prop = [&](const std::string& name, const std::string& value) {
    absl::StrAppend(&props, "        <property name=\"", name, "\" value=\"", EscapeForXml(value),
                    "\"/>\n");
  };
  auto yes = [](bool b) { return b ? "true" : "false"; };
  prop("score", scored ? FormatPythonFloat(r.score().number_value()) : "");
  prop("medal", std::string(MedalName(r)));
  prop("gold_threshold", FormatPythonFloat(r.gold_threshold()));
  prop("silver_threshold", FormatPythonFloat(r.silver_threshold()));
  prop("bronze_threshold", FormatPythonFloat(r.bronze_threshold()));
  prop("median_threshold", FormatPythonFloat(r.median_threshold()));
  prop("any_medal", yes(r.any_medal()));
  prop("above_median", yes(r.above_median()));
  prop("is_lower_better", yes(r.is_lower_better()));
  prop("submission_exists", yes(r.submission_exists()));
  prop("valid_submission", yes(r.valid_submission()));
  prop("invalid_reason", r.invalid_reason());
  prop("agent", r.agent());
  prop("agent_digest", r.agent_digest());
  prop("seed", std::to_string(r.seed()));
  prop("dataset", r.dataset());
  prop("thresholds_source", r.thresholds_source());
  prop("isolation", r.isolation());
  prop("network", r.network());
  prop("allowed_hosts", absl::StrJoin(r.allowed_hosts(), ","));
  prop("network_requests", std::to_string(r.network_requests()));
  prop("network_requests_refused", std::to_string(r.network_requests_refused()));
  prop("network_requests_failed", std::to_string(r.network_requests_failed()));
  prop("isolation_requested", std::string(IsolationRequestName(options.isolation_requested)));
  prop("gate", std::string(GatingPolicyName(policy)));
  prop("cpus", std::to_string(r.cpus()));
  prop("memory_limit_bytes", std::to_string(r.memory_limit_bytes()));
  prop("gpus", std::to_string(r.gpus()));
  prop("processes_limit", std::to_string(r.processes_limit()));
  prop("wall_seconds", absl::StrFormat("%.3f", r.wall_seconds()));
  prop("cpu_seconds", absl::StrFormat("%.3f", r.cpu_seconds()));
  prop("memory_peak_bytes", std::to_string(r.memory_peak_bytes()));
  prop("ended_by", r.ended_by());
  prop("sample_score", r.sample_score().kind_case() == google::protobuf::Value::kNumberValue
                           ? FormatPythonFloat(r.sample_score().number_value())
                           : "");
  prop("beats_sample", yes(r.beats_sample()));

  std::string xml;
  absl::StrAppend(&xml, "    <testcase name=\"", EscapeForXml(name), "\" classname=\"mlebench.",
                  id, "\">\n");
  absl::StrAppend(&xml, "      <properties>\n", props, "      </properties>\n");
  if (!decision.pass) {
    absl::StrAppend(&xml, "      <failure message=\"", EscapeForXml(decision.reason), "\">",
                    EscapeForXml(decision.reason), "</failure>\n");
  }
  absl::StrAppend(&xml, "      <system-out>", EscapeForXml(summary), "</system-out>\n");
  absl::StrAppend(&xml, "    </testcase>\n");
  return xml;
}

}  // namespace

std::string CompetitionJUnitXml(const std::vector<SeedResult>& results, GatingPolicy policy,
                                const GateOptions& options) {
  const std::string id = results.empty() ? "" : results.front().report.competition_id();
  int failures = 0;
  std::string cases;
  for (const SeedResult& result : results) {
    if (!result.decision.pass) ++failures;
    // Named by seed however many there are, so that a CI's history of a
    // testcase survives a change of --//agent_runner:seeds.
    const std::string name = absl::StrCat(id, " seed ", result.report.seed());
    cases += TestCaseXml(result.report, policy, result.decision, result.summary, options, name);
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  absl::StrAppend(&xml, "  <testsuite name=\"", EscapeForXml(id), "\" tests=\"", results.size(),
                  "\" failures=\"", failures, "\" errors=\"0\">\n");
  absl::StrAppend(&xml, cases, "  </testsuite>\n</testsuites>\n");
  return xml;
}

std::string CompetitionJUnitXml(const CompetitionReport& report, GatingPolicy policy,
                                const GateDecision& decision, std::string_view summary,
                                const GateOptions& options) {
  const std::string id = report.competition_id();
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  absl::StrAppend(&xml, "  <testsuite name=\"", EscapeForXml(id), "\" tests=\"1\" failures=\"",
                  decision.pass ? 0 : 1, "\" errors=\"0\">\n");
  absl::StrAppend(&xml, TestCaseXml(report, policy, decision, summary, options, id),
                  "  </testsuite>\n</testsuites>\n");
  return xml;
}

}  // namespace mlebench
