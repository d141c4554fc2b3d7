#ifndef MLEBENCH_AGENT_RUNNER_SANDBOX_H_
#define MLEBENCH_AGENT_RUNNER_SANDBOX_H_

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Where the sandbox entry program (sandbox_entry_main.cc) is mounted inside
// the sandbox; bwrap runs it, and it runs the agent.
inline constexpr char kSandboxEntryPath[] = "/run/mlebench/sandbox_entry";
// Where the competition's validate binary (validate_submission.sh's) is
// mounted inside the sandbox.
inline constexpr char kSandboxValidatorPath[] = "/run/mlebench/validate";

// Where the host's system (/usr and the top-level /bin, /sbin, /lib* as the
// host has them; never its /etc) is bound read-only when the agent brings its
// own root file system (SandboxSpec::rootfs): the host's socat, its dynamic
// loader and libraries, for the egress proxy's forwarder, which the sandbox
// entry starts through that loader. It is what the default sandbox shows at
// /usr anyway.
inline constexpr char kHostSystemPath[] = "/run/mlebench/host";

// The top-level entries of an agent's root file system that become the
// sandbox's system. usr and etc must be directories; the others may be
// missing, directories or symlinks.
inline constexpr const char* kRootfsSystemEntries[] = {"usr",   "bin",    "sbin", "lib", "lib32",
                                                       "lib64", "libx32", "etc",  "opt"};

// Confinement of an agent with bubblewrap (bwrap): what the agent sees.
struct SandboxSpec {
  // Absolute; read-write at the same path, and the agent's working directory.
  std::filesystem::path workspace;
  // Absolute: the path the agent is run by inside (where it was outside).
  std::filesystem::path agent;
  // Absolute: the file mounted read-only at `agent` (a staged copy; see
  // runfiles_stage.h).
  std::filesystem::path staged_agent;
  // Absolute, optional: the directory mounted read-only at `agent` +
  // ".runfiles" (a staged copy of the runfiles tree). One mount, whatever the
  // number of files.
  std::filesystem::path staged_runfiles;
  // Absolute: the sandbox entry program, mounted read-only at
  // kSandboxEntryPath.
  std::filesystem::path sandbox_entry;
  // Absolute, optional: the agent's own root file system, a directory whose
  // usr, bin, sbin, lib*, etc and opt (kRootfsSystemEntries) the sandbox
  // shows instead of the host's /usr, /bin, /sbin, /lib* and /etc; the host's
  // system is then bound at kHostSystemPath. Empty: the host's system.
  std::filesystem::path rootfs;
  // Keep the host's network namespace (false: an empty one, loopback only).
  bool share_network = false;
  // The caller runs as host root. bwrap then makes no user namespace (uid 0
  // inside would be uid 0 to the kernel) and keeps its capabilities for the
  // sandbox entry, which drops them and becomes an unprivileged uid before
  // the agent starts. Otherwise bwrap makes a user namespace for the calling
  // (unprivileged) user and drops every capability itself.
  bool host_root = false;
  // Absolute; bound read-only at the same path (e.g. a real dataset the
  // workspace links to).
  std::vector<std::filesystem::path> read_only_dirs;
  // Relative to the workspace: directories bound read-only over themselves
  // inside it (data/: the agent may read its copy of the public files, never
  // change them or write beside them, whoever owns them on the host).
  std::vector<std::filesystem::path> read_only_in_workspace;
  // Absolute host paths bound read-only at absolute paths inside (`first`
  // at `second`): the agent's environment (e.g. a Python environment at
  // /opt/mlebench/python) and files that tell libraries what the agent was
  // given (/sys/devices/system/cpu/online). In order, after the system.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> read_only_binds;
  // Host device nodes (`first`) bound at absolute paths in /dev (`second`):
  // the granted GPUs and the driver's control nodes. No other GPU node is
  // visible.
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> device_nodes;
  // > 0: the size of the private /dev/shm (POSIX shared memory; its pages are
  // charged to the agent's memory cgroup); 0: tmpfs's default, half of RAM.
  int64_t shm_bytes = 0;
  // >= 0: a descriptor (inherited by bwrap) holding a classic BPF program,
  // which bwrap installs on the sandbox's init as well as on the command
  // (--seccomp). The init runs as the agent's user when the caller is not
  // root, and is dumpable: without a filter of its own, an agent that took
  // it over through /proc/1/mem would run unfiltered.
  int seccomp_fd = -1;
};

// bwrap's options for `spec`; kSandboxEntryPath, its arguments and the
// agent's command follow them. Inside, the agent sees only:
//   /usr read-only, and /bin, /sbin, /lib* as the host has them (symlinks
//     into /usr are recreated, real directories bound read-only);
//   /etc read-only, except that whatever the host does not let other users
//     read (shadow passwords, private keys, ...) is masked: files are
//     replaced by an unreadable node, directories by an empty read-only tmpfs;
//     and /etc/resolv.conf's target when it is a symlink out of /etc and /usr;
//   or, with a `rootfs`, its usr, bin, sbin, lib*, etc instead (each
//     directory bound read-only, each symlink recreated, as it is there: its
//     /etc unmasked, being the agent's own), its opt's entries in a read-only
//     tmpfs at /opt (which leaves room for the environments' mount points
//     under /opt/mlebench; an entry named mlebench is an error), and the
//     host's /usr, /bin, /sbin and /lib* read-only under kHostSystemPath;
//   a fresh /proc whose global kernel settings (/proc/sys, sysrq-trigger,
//     irq, bus, fs, ...) are read-only; /sys read-only; a minimal /dev plus
//     the `device_nodes` (granted GPUs), with a private, world-writable
//     /dev/shm of `shm_bytes` (POSIX shared memory and semaphores);
//   an empty, private /tmp;
//   the `read_only_dirs` and `read_only_binds`;
//   the workspace, with `read_only_in_workspace` read-only inside it, the
//     staged agent and the staged runfiles tree;
//   the sandbox entry.
// Namespaces: pid, ipc, uts, cgroup, mount and (unless shared) network are
// always new; user too unless `host_root`. Every mount outside the workspace
// and /tmp is read-only, the root included. The sandbox gets SIGKILL when
// bwrap's parent dies. There is no --new-session: the sandbox's init stays in
// bwrap's process group, so killing that group kills the init, and the kernel
// then kills every process in the sandbox. (The caller should give bwrap a
// session of its own, so that no controlling terminal is reachable.)
// Errors when /etc (or the rootfs's opt) cannot be listed, the rootfs lacks
// a usr or etc directory, or `spec` has relative or missing paths.
absl::StatusOr<std::vector<std::string>> BwrapOptions(const SandboxSpec& spec);

// `path` on the host, resolved, as the sandbox sees it under kHostSystemPath
// (when the agent has its own root file system): an error unless it
// resolves into the host's /usr or a top-level /bin, /sbin or /lib* that is
// a real directory (what BwrapOptions binds there).
absl::StatusOr<std::filesystem::path> HostPathInSandbox(const std::filesystem::path& path);

// The host's dynamic loader and library directories under kHostSystemPath:
// a dynamically linked program of the host (the egress proxy's socat, the
// probe's true) runs on an agent's own root file system as
//   LOADER --inhibit-cache --library-path LIBRARY_PATH PROGRAM ...
// which loads the host's libraries, never the root file system's (its
// /etc/ld.so.cache is not read). The loader is x86-64's
// /lib64/ld-linux-x86-64.so.2 (the seccomp filter is x86-64's too); the
// directories are the host's multiarch and default ones that exist,
// resolved, in the loader's order.
struct HostLoader {
  std::filesystem::path loader;
  std::string library_path;  // colon-separated
};
absl::StatusOr<HostLoader> HostLoaderInSandbox();

// Sends `signal` to every process inside the sandbox of `bwrap_pid`, a bwrap
// process started with BwrapOptions, except the sandbox's init, which keeps
// the pid namespace (and so the agent) alive until it dies itself. bwrap would
// end the whole sandbox at once if it got the signal; this gives the agent
// the chance to react to SIGTERM. Best effort: processes started while it
// runs may be missed.
void SignalSandboxedProcesses(pid_t bwrap_pid, int signal);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_SANDBOX_H_
