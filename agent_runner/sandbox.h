#ifndef MLEBENCH_AGENT_RUNNER_SANDBOX_H_
#define MLEBENCH_AGENT_RUNNER_SANDBOX_H_

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Confinement of an agent with bubblewrap (bwrap): what the agent sees.
struct SandboxSpec {
  // Absolute; read-write at the same path, and the agent's working directory.
  std::filesystem::path workspace;
  // Absolute; read-only at the same path, as is `agent` + ".runfiles" when that
  // is a directory (see BwrapOptions).
  std::filesystem::path agent;
  // Keep the host's network namespace (false: an empty one, loopback only).
  bool share_network = true;
  // Absolute; bound read-only at the same path (e.g. a real dataset the
  // workspace links to).
  std::vector<std::filesystem::path> read_only_dirs;
};

// bwrap's options for `spec`; the command (an absolute path) and its arguments
// follow them. Inside, the agent sees only:
//   /usr read-only, and /bin, /sbin, /lib* as the host has them (symlinks
//     into /usr are recreated, real directories bound read-only);
//   /etc read-only, except that whatever the host does not let other users
//     read (shadow passwords, private keys, ...) is masked: files are
//     replaced by an unreadable node, directories by an empty read-only tmpfs;
//     and /etc/resolv.conf's target when it is a symlink out of /etc and /usr;
//   /sys read-only; a fresh /proc; a minimal /dev plus any GPU device nodes
//     (/dev/nvidia*, /dev/dri);
//   an empty, private /tmp;
//   the `read_only_dirs`;
//   the workspace, the agent, and its runfiles tree, in which every symlink
//     is replaced by its (read-only) target, so that runfiles resolve
//     without exposing the tree they point into (e.g. Bazel's output base).
// All namespaces are new (user when possible, pid, ipc, uts, cgroup, and
// network unless shared); the agent has no capabilities and gets SIGKILL when
// bwrap's parent dies. There is no --new-session: the sandbox's init stays in
// bwrap's process group, so killing that group kills the init, and the kernel
// then kills every process in the sandbox. (The caller should give bwrap a
// session of its own, so that no controlling terminal is reachable.)
// Dangling symlinks in the runfiles tree are left out. Errors only when /etc
// or the runfiles tree cannot be listed, or `spec` has relative paths.
absl::StatusOr<std::vector<std::string>> BwrapOptions(const SandboxSpec& spec);

// Sends `signal` to every process inside the sandbox of `bwrap_pid`, a bwrap
// process started with BwrapOptions, except the sandbox's init, which keeps
// the pid namespace (and so the agent) alive until it dies itself. bwrap would
// end the whole sandbox at once if it got the signal; this gives the agent
// the chance to react to SIGTERM. Best effort: processes started while it
// runs may be missed.
void SignalSandboxedProcesses(pid_t bwrap_pid, int signal);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_SANDBOX_H_
