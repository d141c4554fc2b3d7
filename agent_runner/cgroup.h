#ifndef MLEBENCH_AGENT_RUNNER_CGROUP_H_
#define MLEBENCH_AGENT_RUNNER_CGROUP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// Limits the kernel enforces on an agent's whole process tree.
struct ResourceLimits {
  // > 0: hard limit on RAM, in bytes; swap is barred where the kernel accounts
  // it (v2 memory.swap.max = 0, v1 memory.memsw.limit_in_bytes = the same
  // limit). Past it the kernel's OOM killer kills a process of the agent.
  // 0: none.
  int64_t memory_bytes = 0;
  // > 0: most tasks (processes and threads) at once; fork and clone fail with
  // EAGAIN past it. 0: none.
  int64_t pids = 0;
  // > 0: CPU bandwidth in cores (quota over a 100 ms period), at least 0.01.
  // 0: none.
  double cpus = 0;
  // Non-empty: the only CPUs the agent's processes may run on, in the
  // kernel's list format ("0-3,6"): a cpuset, which the agent cannot widen
  // with sched_setaffinity. Empty: none.
  std::string cpuset_cpus;
};

// Limits that protect the host from a runaway agent: memory 80% of MemTotal
// (0 if /proc/meminfo cannot be read), pids 4096, all CPUs.
ResourceLimits DefaultResourceLimits();

// The machine's RAM: MemTotal of /proc/meminfo, in bytes; 0 when it cannot
// be read.
int64_t MachineMemoryBytes();

// Where AgentCgroup::Create learns the process's cgroups and the mounted
// cgroup file systems. Only tests change these.
struct CgroupSystem {
  std::string proc_self_cgroup = "/proc/self/cgroup";
  std::string mountinfo = "/proc/self/mountinfo";
};

// A fresh cgroup for an agent's process tree: one directory in each cgroup
// hierarchy it needs, below the calling process's own cgroup there.
//
// Each controller comes from cgroup v2 (the unified hierarchy) when the
// process's v2 cgroup offers it (listed in its cgroup.controllers), otherwise
// from the v1 hierarchy of that controller (cpu may be co-mounted as
// cpu,cpuacct). Where a v2 hierarchy is mounted and writable, the agent also
// gets a cgroup there even if it provides no controller (as on hybrid hosts),
// for its atomic cgroup.kill.
//
// cgroup v2 allows controllers to be enabled for a cgroup's children only
// while the cgroup holds no processes itself (unless it is the root). If the
// process's own v2 cgroup must enable a controller and holds processes, the
// calling process moves itself into the leaf `<own>/mlebench-runner` first,
// and stays there; later calls from a process in such a leaf create agent
// cgroups next to it, in `<own>`. When other processes remain in `<own>` this
// is an error: the runner needs a cgroup of its own (e.g. systemd-run --scope
// -p Delegate=yes).
//
// Movable, not copyable; the destructor does what Remove does.
class AgentCgroup {
 public:
  // Creates the cgroup, named "<name_hint>-<pid>-<counter>" (name_hint:
  // letters, digits, '-', '_'; the counter skips names in use), and writes
  // `limits`.
  // Every requested limit is set, or this is an error that says what is
  // missing and how to fix it (no writable cgroup file system, controller not
  // mounted or not delegated, permission denied); no cgroup is left behind
  // then (controllers enabled in v2, and a move into the runner leaf, stay).
  // With all limits 0 a cgroup is still created where possible (KillAll then
  // reaches every process of the agent); where none can be, the result does
  // nothing: enforced() is false and Describe() says why.
  static absl::StatusOr<AgentCgroup> Create(const ResourceLimits& limits,
                                            absl::string_view name_hint,
                                            const CgroupSystem& system = {});

  AgentCgroup(AgentCgroup&& other) noexcept;
  AgentCgroup& operator=(AgentCgroup&& other) noexcept;
  AgentCgroup(const AgentCgroup&) = delete;
  AgentCgroup& operator=(const AgentCgroup&) = delete;
  ~AgentCgroup();

  // True when a cgroup exists, i.e. the limits hold and KillAll reaches every
  // descendant of a process that joined.
  bool enforced() const { return !groups_.empty(); }

  // Moves the calling process into the cgroup, in every hierarchy; its
  // children are born there. Async-signal-safe (only write(2) of "0", the
  // writer, to cgroup.procs descriptors opened by Create), for a child
  // between fork() and exec(); call it before closing inherited descriptors.
  // Those descriptors are close-on-exec. False if a write fails (the child
  // should _exit then). True, and does nothing, when !enforced().
  bool JoinFromChild() const;

  // SIGKILLs every process in the cgroup and its descendant cgroups (v2:
  // cgroup.kill where the kernel has it; otherwise SIGKILL to each pid in
  // cgroup.procs, round after round, since processes may fork meanwhile),
  // and waits up to 5 s for them to exit (zombies do not count). The caller
  // must not be in the cgroup; it is spared where the kernel leaves a choice.
  void KillAll() const;

  // What the kernel counted; -1 where unknown (e.g. no memory limit).
  struct Usage {
    // Highest RAM use (v2 memory.peak, v1 memory.max_usage_in_bytes).
    int64_t memory_peak_bytes = -1;
    // Processes the OOM killer killed in the cgroup (v2 memory.events
    // oom_kill, v1 memory.oom_control oom_kill).
    int64_t oom_kills = -1;
    // Times fork or clone failed at the processes limit (v2 pids.events
    // max, v1 pids.events max).
    int64_t pids_limit_hits = -1;
  };
  Usage ReadUsage() const;

  // Kills what is left (KillAll) and removes the directories, descendant
  // cgroups first, retrying for up to 2 s while the kernel finishes. An error
  // names the directories that remain. Afterwards enforced() is false.
  absl::Status Remove();

  // E.g. "cgroup v1 memory:/process_api/x/agent-12-1, v1 pids:/agent-12-1,
  // v2 :/agent-12-1": per hierarchy its version, controllers (v1: the
  // hierarchy's; v2: those limited there) and the cgroup's path as
  // /proc/<pid>/cgroup shows it; or "no cgroup: why".
  std::string Describe() const;

  // The cgroup's directories, one per hierarchy (empty when !enforced()).
  std::vector<std::string> directories() const;

  // Kills and removes cgroups that a runner which died left behind, given
  // their directories() (for the janitor of workspace_lease.h): Remove() on
  // them, each taken as v2 where it has cgroup.kill and v1 otherwise.
  static absl::Status RemoveLeftover(const std::vector<std::string>& directories);

 private:
  struct Group {
    int version = 0;          // 1 or 2
    std::string controllers;  // as Describe shows them, e.g. "cpu,cpuacct"
    std::string path;         // as in /proc/self/cgroup
    std::string dir;          // absolute
    bool memory = false;      // enforces the memory limit
    int procs_fd = -1;        // cgroup.procs, opened for JoinFromChild
  };

  AgentCgroup() = default;

  std::vector<Group> groups_;
  std::string why_none_;  // when groups_ is empty
};

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_CGROUP_H_
