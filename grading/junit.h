#ifndef MLEBENCH_GRADING_JUNIT_H_
#define MLEBENCH_GRADING_JUNIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "grading/gating.h"
#include "grading/report.pb.h"

namespace mlebench {

// JUnit XML for one competition test: a testsuite with one testcase named
// after the competition, whose <properties> hold every report field (score,
// medals, thresholds, validity, agent, seed, dataset, isolation, network, ...;
// isolation and network empty when unknown), the gate's options
// (isolation_requested: "bwrap", "none" or "" when not said) and
// policy, a <failure> when the gate failed, and the summary line as
// <system-out>. Every value goes through EscapeForXml (base/display_text.h),
// so that whatever an agent wrote, the document parses. Deterministic.
std::string CompetitionJUnitXml(const CompetitionReport& report, GatingPolicy policy,
                                const GateDecision& decision, std::string_view summary,
                                const GateOptions& options = {});

// One seed's run of a competition, as the test step judged it.
struct SeedResult {
  CompetitionReport report;
  GateDecision decision;
  std::string summary;
};

// The same for the seeds of a competition test: one testsuite named after the
// competition, one testcase per seed, named "<id> seed <N>" however many
// seeds there are,
// each with its own properties, failure and summary line, in the given order.
// The budget and what the run used (cpus, memory_limit_bytes, gpus,
// processes_limit, wall_seconds, cpu_seconds, memory_peak_bytes, ended_by)
// and the agent's digest are properties too.
std::string CompetitionJUnitXml(const std::vector<SeedResult>& results, GatingPolicy policy,
                                const GateOptions& options = {});

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_JUNIT_H_
