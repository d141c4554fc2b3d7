#ifndef MLEBENCH_GRADING_JUNIT_H_
#define MLEBENCH_GRADING_JUNIT_H_

#include <string>
#include <string_view>

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

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_JUNIT_H_
