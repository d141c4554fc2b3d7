#ifndef MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_
#define MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_

#include <cstdint>
#include <string>

namespace mlebench {

// The benchmark rules the runner writes to the workspace as instructions.txt
// (upstream's /home/instructions.txt, restated in our own words for a local
// workspace): what MLE-bench is, where the task, data and submission live
// (relative to the workspace root, which is the agent's working directory),
// the time limit, the network as the sandbox really has it (none, or open
// for model APIs only), and what is not allowed (downloads, hand-labelling,
// looking up solutions). Depends only on its arguments, so it is
// deterministic.
std::string AgentInstructions(int64_t time_limit_s, bool network_allowed);

// "90 seconds (1 min 30 s)"; "1 second"; "86400 seconds (24 h)".
std::string DescribeTimeLimit(int64_t seconds);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_
