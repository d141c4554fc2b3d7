#ifndef MLEBENCH_AGENT_RUNNER_PROCESSES_H_
#define MLEBENCH_AGENT_RUNNER_PROCESSES_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace mlebench {

// Views of the process table, read from /proc (so they see the processes of
// the pid namespace this /proc belongs to). A snapshot: processes may start or
// end while it is taken.

// Every process whose parent is `parent`.
std::vector<pid_t> ChildrenOf(pid_t parent);

// An identifier of the pid namespace that `pid` lives in (the target of
// /proc/<pid>/ns/pid, e.g. "pid:[4026532184]"), or nullopt when it cannot be
// read (the process is gone, or belongs to another user).
std::optional<std::string> PidNamespaceOf(pid_t pid);

// Every process whose pid namespace is `pid_namespace` (as PidNamespaceOf
// names it).
std::vector<pid_t> ProcessesInPidNamespace(const std::string& pid_namespace);

// Every process of the process group `group`.
std::vector<pid_t> ProcessesInGroup(pid_t group);

// The threads of process `pid` (/proc/<pid>/task), the process itself first
// when it is among them; empty when it is gone.
std::vector<pid_t> ThreadsOf(pid_t pid);

// Whether `pid` has exited and waits to be reaped, or is gone.
bool IsZombieOrGone(pid_t pid);

// When `pid` started, in clock ticks after boot (/proc/<pid>/stat's
// starttime): with the pid, it names a process even after the pid is reused.
// nullopt for a process that is gone or a zombie.
std::optional<unsigned long long> StartTimeOf(pid_t pid);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_PROCESSES_H_
