#ifndef MLEBENCH_GRADING_GATING_H_
#define MLEBENCH_GRADING_GATING_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/report.pb.h"

namespace mlebench {

// When a competition test passes (--//competitions:gate):
//   kNone   a report was produced (whatever it says);
//   kValid  the submission is valid (the default);
//   kMedian the score is strictly better than the leaderboard median;
//   kBronze / kSilver / kGold  at least that medal.
enum class GatingPolicy { kNone, kValid, kMedian, kBronze, kSilver, kGold };

absl::StatusOr<GatingPolicy> ParseGatingPolicy(std::string_view name);
std::string_view GatingPolicyName(GatingPolicy policy);

struct GateDecision {
  bool pass = false;
  std::string reason;  // why it failed; empty when it passed
};

GateDecision Gate(const CompetitionReport& report, GatingPolicy policy);

// "gold", "silver", "bronze" or "none".
std::string_view MedalName(const CompetitionReport& report);

// One human-readable line, e.g.
// "spaceship-titanic: score 0.79 (higher is better) medal none, above median
//  no [gold 0.82066 silver 0.81388 bronze 0.80967 median 0.79565] gate valid:
//  PASS".
std::string SummaryLine(const CompetitionReport& report, GatingPolicy policy,
                        const GateDecision& decision);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_GATING_H_
