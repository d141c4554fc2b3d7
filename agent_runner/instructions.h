#ifndef MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_
#define MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mlebench {

// The benchmark rules the runner writes to the workspace as instructions.txt
// (upstream's /home/instructions.txt, restated in our own words for a local
// workspace): what MLE-bench is, where the task, data and submission live
// (relative to the workspace root, which is the agent's working directory),
// the time limit, the network as the sandbox really has it (`network`:
// "deny", none at all; "allowlist", the proxy and the `allowed_hosts`
// ("host:port"); "unconfined", the host's), and what is not allowed
// (downloads, hand-labelling, looking up solutions). Depends only on its
// arguments, so it is deterministic.
//
// `resources`, when given, is the budget's paragraph (DescribeResources):
// it follows the time limit.
std::string AgentInstructions(int64_t time_limit_s, std::string_view network,
                              const std::vector<std::string>& allowed_hosts = {},
                              const std::string& resources = "");

// The budget as the agent is told it, e.g. "- Resources: 2 CPU cores, 8 GiB
// of memory (/dev/shm included), no GPU, at most 4096 processes and
// threads. ..." cpus 0: every core of the machine (`machine_cpus`); memory
// and processes 0: not limited.
std::string DescribeResources(int cpus, int machine_cpus, int64_t memory_bytes, int gpus,
                              int64_t processes);

// "90 seconds (1 min 30 s)"; "1 second"; "86400 seconds (24 h)".
std::string DescribeTimeLimit(int64_t seconds);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_INSTRUCTIONS_H_
