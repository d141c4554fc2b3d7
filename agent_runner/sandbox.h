// The sandbox of an agent run, set up in one place: what the agent sees and
// how it is confined (bubblewrap's namespaces and mounts), what it is given
// (its staged files, environment, root file system, devices, the proxy's
// socket, the validator), the seccomp program, the sandbox entry's command
// line, and the probe that tries all of it before the agent starts
// (PrepareSandbox); then starting commands in it (Sandbox::Child) and
// reaching the processes inside (SignalSandboxedProcesses,
// SandboxedProcesses).
//
// The protections, in the order they are set up for the agent:
//   1. the runner's child (internal/child_process.h), before it execs bwrap:
//      a session of its own, default signal handling, the cgroup (cgroup.h;
//      the runner makes it) joined, the CPU affinity, every other descriptor
//      closed; the runner then enforces the time limit and the quota and
//      kills whatever is left;
//   2. bwrap (BwrapOptions): new namespaces, the mounts below,
//      --die-with-parent, and the seccomp program on the sandbox's init and
//      on the command;
//   3. the sandbox entry (sandbox_entry_main.cc, inside; its own comment
//      has its steps and their order): the sandbox user, no capability,
//      no_new_privs, rlimits, the seccomp filter, the proxy's forwarder, then
//      exec of the agent.
// Failing to set any of them up is an error, never a run without it.
#ifndef MLEBENCH_AGENT_RUNNER_SANDBOX_H_
#define MLEBENCH_AGENT_RUNNER_SANDBOX_H_

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent_runner/internal/child_process.h"
#include "agent_runner/internal/file_ops.h"
#include "agent_runner/rootfs.h"

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

// The processes of the sandbox of `bwrap_pid` (bwrap's child is the init of
// its pid namespace): every process in that namespace, init included; none
// when it cannot be read.
std::vector<pid_t> SandboxedProcesses(pid_t bwrap_pid);

// What one agent run's sandbox is made of. Paths are as the runner has them;
// PrepareSandbox resolves and judges them.
struct SandboxRequest {
  std::filesystem::path bwrap;          // the bubblewrap executable
  std::filesystem::path sandbox_entry;  // //agent_runner:sandbox_entry
  // Absolute and populated; the agent's working directory, read-write.
  std::filesystem::path workspace;
  // Absolute, not canonicalised: where the agent is run by inside, so that a
  // launcher finds `<agent>.runfiles` beside it.
  std::filesystem::path agent;
  // The agent's environment variables; the probe runs with them too.
  std::vector<std::string> env;
  // Made here, filled with the staged agent and runfiles, the validator's
  // copy and the CPU list; the caller removes it with the workspace
  // (WorkspaceStagingDir).
  std::filesystem::path staging_dir;
  // The staging policy (runfiles_stage.h) of the agent's files and of the
  // directories bound below: allowed and forbidden roots (RunOptions'), the
  // output base of the build running us (OutputBaseOfExecroot; forbidden,
  // the more specific allowed roots inside it excepted), most bytes copied.
  std::vector<std::filesystem::path> allowed_roots;
  std::vector<std::filesystem::path> forbidden_roots;
  std::optional<std::filesystem::path> output_base;
  int64_t max_staged_bytes = 0;
  // The competition's public files: their parent (public/ and private/ sit
  // side by side) is never bound; with `link_public` the public dir itself
  // is bound read-only at its own path, where data/'s links lead.
  std::filesystem::path public_dir;
  bool link_public = false;
  // The agent's environment, bound read-only at `environment_mount`; empty:
  // none. Judged like a runfile (CheckTreeToBind).
  std::filesystem::path environment_dir;
  std::filesystem::path environment_mount;
  // The agent's own root file system and its manifest (rootfs.h); empty:
  // the host's system.
  std::filesystem::path rootfs_dir;
  std::filesystem::path rootfs_manifest;
  // Non-empty: what /sys/devices/system/cpu/online shows inside (the
  // granted CPUs, e.g. "0-3\n"), where the host has that file.
  std::string online_cpus;
  // The granted GPUs: <device_dir>/nvidia<N> for each N, plus the driver's
  // control nodes that exist, at /dev/<name>. An absent GPU node is an error.
  std::vector<int> gpu_ids;
  std::filesystem::path device_dir = "/dev";
  // Network allowlist: the egress proxy's socket directory (bound at
  // kSandboxProxySocketDir) and its socat (started by the entry, through
  // the host's loader on an agent's own root file system); empty: none.
  std::filesystem::path proxy_socket_dir;
  std::filesystem::path socat;
  // The competition's validate binary; a copy is bound at
  // kSandboxValidatorPath. Empty: none.
  std::filesystem::path validator;
  bool share_network = false;  // SandboxSpec::share_network
  int64_t shm_bytes = 0;       // SandboxSpec::shm_bytes
  // The host user and group the entry becomes when the runner is root.
  uint32_t sandbox_uid = 65534;
  uint32_t sandbox_gid = 65534;
  // The entry's RLIMIT_FSIZE: no file the agent writes grows beyond it.
  int64_t max_file_bytes = 0;
};

// One run's sandbox, set up and tried: bwrap's options (in a memory file,
// --args), the seccomp program (--seccomp) and the entry's command line.
class Sandbox {
 public:
  // How to run `command` (argv; its first element absolute inside) in the
  // sandbox: bwrap --args FD, the entry and its options, `command`. The
  // child gets a session of its own, and the deadline's SIGTERM goes to the
  // processes inside (SignalSandboxedProcesses), never to bwrap. The caller
  // sets env, cwd, output, limits. Rewinds the option files, so that each
  // child reads them whole.
  runner_internal::ChildSpec Child(const std::vector<std::string>& command) const;

  // Set when the runner is root: the host user and group the entry becomes
  // (never 0). The caller hands it the workspace's writable directories and
  // the agent's output pipe.
  const std::optional<std::pair<uid_t, gid_t>>& agent_user() const { return agent_user_; }

  // What the log says before the agent's output (of the agent's own root
  // file system: its entries, its setuid files), or "".
  const std::string& note() const { return note_; }

 private:
  friend absl::StatusOr<Sandbox> PrepareSandbox(const SandboxRequest& request);
  Sandbox() = default;

  std::filesystem::path bwrap_;
  runner_internal::FileDescriptor args_file_;
  runner_internal::FileDescriptor seccomp_file_;
  std::vector<std::string> entry_;  // kSandboxEntryPath, its options, "--"
  std::optional<std::pair<uid_t, gid_t>> agent_user_;
  std::string note_;
};

// Sets up the sandbox of one run, in this order (the first error stops it):
//   1. resolves bwrap and the sandbox entry;
//   2. stages the agent and its runfiles into `staging_dir` (only files the
//      staging policy allows; runfiles_stage.h);
//   3. judges the environment: its resolved directory must lie inside an
//      allowed root and outside every forbidden one and the output base (the
//      more specific root deciding), and hold none of them nor the
//      competition's data; nothing in or above it may look like a holder of
//      answers, a socket, FIFO, device or mount point (CheckTreeToBind);
//   4. writes the CPU list, finds the GPUs' device nodes, binds the proxy's
//      socket directory, copies the validator;
//   5. judges the agent's root file system like the environment, each bound
//      tree, then against its manifest (CheckRootfs);
//   6. writes the seccomp program (seccomp_filter.h) and bwrap's options
//      (BwrapOptions) into memory files;
//   7. runs /bin/true through bwrap and the entry with exactly those options
//      (on an agent's own root file system, the host's true through the
//      host's loader): a probe that fails is FailedPrecondition, "isolation
//      bwrap is unavailable", never a run without isolation.
// 6 before 7 is what makes the probe worth having: it reads the very memory
// files that the agent's bwrap reads afterwards (Child rewinds them), so
// what was tried is what runs.
// Staging or judging errors are FailedPrecondition or PermissionDenied
// naming what was refused; see docs/security.md.
absl::StatusOr<Sandbox> PrepareSandbox(const SandboxRequest& request);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_SANDBOX_H_
