#ifndef MLEBENCH_AGENT_RUNNER_RUNNER_H_
#define MLEBENCH_AGENT_RUNNER_RUNNER_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/egress_proxy.h"
#include "agent_runner/keep_tree.h"
#include "agent_runner/secrets.h"

namespace mlebench {

// How the agent is confined (see README.md, docs/security.md and sandbox.h).
// There is no automatic choice: isolation that cannot be set up is an error,
// never a quiet run without it.
enum class Isolation {
  kBwrap,  // inside bubblewrap, as an unprivileged user; an error when it cannot start
  kNone,   // a plain child process that can read whatever its user can
};

// The network the agent has. kDeny (the default): an empty network namespace,
// loopback only. kAllowlist (agents that call model APIs): the same, plus an
// HTTP(S) proxy on its loopback that reaches only RunOptions::allowed_hosts
// and logs every request (egress_proxy.h). kUnconfined: the host's own
// network, loopback and private ranges included - what isolation none always
// has; no gate accepts it unless asked. kDeny and kAllowlist need bwrap.
enum class Network { kUnconfined, kDeny, kAllowlist };

// "bwrap", "none"; "unconfined", "deny", "allowlist".
const char* IsolationName(Isolation isolation);
const char* NetworkName(Network network);
// The inverse of the above; nullopt for any other text.
std::optional<Isolation> ParseIsolation(absl::string_view text);
std::optional<Network> ParseNetwork(absl::string_view text);

// Runs an agent on one competition the way upstream's container does, but in a
// local scratch directory (the "workspace") instead of a Docker container.
//
// Workspace layout (relative to its root, which is the agent's working
// directory; upstream's `/home`):
//   data/              copy of every file under `public_dir` (or, with
//                      `link_public`, a symlink to each of its entries), plus
//   data/description.md  a copy of `description_file` (replaces any in public_dir)
//   submission/        empty; the agent must write submission/submission.csv
//   logs/  code/       empty, for the agent's own use
//   instructions.txt   the benchmark rules (see instructions.h)
struct RunOptions {
  std::string competition_id;
  std::filesystem::path public_dir;        // the competition's prepared public files
  // Symlink the entries of `public_dir` into data/ instead of copying them,
  // for real datasets (up to hundreds of GB) kept in a stable data dir; under
  // bubblewrap, `public_dir` is then bound read-only at its own path so that
  // the links resolve and the agent cannot change the files (without
  // isolation it can, like anything else its user may write).
  bool link_public = false;
  std::filesystem::path description_file;  // becomes data/description.md
  std::filesystem::path agent;             // executable; relative paths are resolved first
  std::vector<std::string> agent_args;     // passed to the agent after argv[0]
  int64_t time_limit_s = 0;                // > 0
  double grace_s = 5.0;                    // SIGTERM -> SIGKILL delay at the deadline, >= 0
  int64_t seed = 0;                        // passed to the agent as MLEBENCH_SEED
  // The sample submission's path inside the public files (upstream names it
  // per competition: sample_submission.csv, sampleSubmission.csv, ...);
  // passed to the agent as MLEBENCH_SAMPLE_SUBMISSION (absolute, in data/).
  // Must be relative and stay inside data/.
  std::filesystem::path sample_submission = "sample_submission.csv";

  std::filesystem::path submission_out;  // directory; receives submission.csv if any
  std::filesystem::path log_out;         // the agent's stdout and stderr, interleaved

  // Where to build the workspace; it must be absent or an empty directory.
  // Unset: a fresh directory under $TMPDIR (or /tmp).
  std::optional<std::filesystem::path> workspace;
  bool keep_workspace = false;

  // Also kills and reaps every child of the calling process once the agent is
  // done: descendants that left the agent's process group (setsid, setpgid)
  // are reparented to the caller when it is a child subreaper (see
  // BecomeChildSubreaper). Only for a process whose only children are agents,
  // such as run_agent.
  bool kill_all_children = false;

  Isolation isolation = Isolation::kBwrap;
  Network network = Network::kDeny;  // kDeny or kAllowlist with kNone is an error
  // kAllowlist: the host:port pairs the agent may reach (none: every request
  // is refused, and logged), and how the proxy is started.
  std::vector<AllowedHost> allowed_hosts;
  EgressProxyOptions proxy;
  // Environment variables the agent gets at run time (API keys; secrets.h).
  // Their values are never written by the runner: occurrences in the
  // agent's log and kept code/logs are replaced by "[secret NAME]". A name
  // the runner sets itself (PATH, HOME, MLEBENCH_*, the proxy variables) is
  // an error.
  std::vector<Secret> secrets;
  // The competition's validate binary (//competitions/<id>:validate); set:
  // the workspace gets validate_submission.sh, which runs it on a file with
  // the public sample submission (agent_runner/validation/validate_script.h),
  // and instructions.txt says so. Under bwrap a copy is mounted read-only.
  std::filesystem::path validator;
  // The bubblewrap executable (tests point it elsewhere to simulate its
  // absence).
  std::filesystem::path bwrap = "/usr/bin/bwrap";
  // The sandbox entry program (//agent_runner:sandbox_entry); required for
  // kBwrap.
  std::filesystem::path sandbox_entry;
  // kBwrap: the agent and every file of its runfiles tree must resolve
  // (symlinks followed) inside one of these directories and outside every
  // forbidden one (see runfiles_stage.h: the more specific root decides);
  // anything else is an error of the run. Resolved by the runner; required
  // for kBwrap. Besides these, the runner forbids the Bazel output base it
  // runs in (when its working directory is an execroot) and every directory
  // that looks like a holder of answers (StagingPolicy::
  // refuse_answer_holders: output bases, disk caches, data dirs, ...).
  std::vector<std::filesystem::path> allowed_roots;
  std::vector<std::filesystem::path> forbidden_roots;
  // kBwrap: most bytes staging may copy (files that cannot be hard-linked);
  // a file reached by several paths is copied once. More is an error.
  int64_t max_staged_bytes = int64_t{8} << 30;
  // When the runner is root, the host user and group the agent runs as under
  // kBwrap (nobody:nogroup by default; never 0). Otherwise the agent runs as
  // the caller, in a user namespace.
  uint32_t sandbox_uid = 65534;
  uint32_t sandbox_gid = 65534;
  // Kernel-enforced limits on the agent's processes (cgroup.h); nullopt: no
  // cgroup at all (the record says so). A requested limit that cannot be set
  // up is an error.
  std::optional<ResourceLimits> limits = DefaultResourceLimits();
  // Caps on what the agent can make the runner write: a larger (or sparse)
  // submission.csv is not copied (the run is graded as without one), and the
  // log keeps its first max_log_bytes (a note says how much was dropped).
  int64_t max_submission_bytes = int64_t{1} << 30;
  int64_t max_log_bytes = int64_t{64} << 20;
  // Disk space the agent may use in its workspace, in bytes, and files and
  // directories it may make there (inodes, a resource the whole machine
  // shares); 0: half the space, and half the inodes, free on the
  // workspace's file system when the run starts (workspace_quota.h). No
  // single file can grow beyond the bytes (RLIMIT_FSIZE, kBwrap), and the
  // runner stops the agent (as at the deadline) when the workspace holds
  // more of either than when the agent started, data/ included.
  int64_t workspace_quota_bytes = 0;
  int64_t workspace_quota_inodes = 0;

  // The agent's environment (mle_agent's `environment`, e.g. a locked Python
  // environment): a directory bound read-only at `environment_mount`
  // (/opt/mlebench/<name>: nowhere else, so that it shadows nothing of the
  // system) inside the sandbox, whatever its size, without a copy; the
  // `environment_path` entries (relative to it) lead the agent's PATH. Needs
  // kBwrap. Judged like a runfile: its resolved directory must lie in an
  // allowed root and outside the forbidden ones, hold none of them nor the
  // output base nor the competition's data, and nothing in or above it may
  // look like a holder of answers, a device or a mount point.
  std::filesystem::path environment_dir;
  std::filesystem::path environment_mount;
  std::vector<std::string> environment_path;
  std::string environment_digest;  // recorded, e.g. the lock's digest

  // The agent's own root file system (mle_agent's `rootfs`; rootfs.h): a
  // directory whose usr, bin, sbin, lib*, etc and opt the sandbox shows
  // instead of the host's system (sandbox.h); the host's is then bound
  // read-only at kHostSystemPath, where the sandbox entry starts the egress
  // proxy's forwarder (the host's socat) through the host's dynamic loader.
  // Needs kBwrap. Judged like the environment (inside an allowed root,
  // outside the forbidden ones, nothing in or above its bound trees that
  // looks like a holder of answers, a socket, FIFO, device or mount point),
  // and, with `rootfs_manifest` (the file its repository made with it),
  // compared with its manifest entry by entry: a difference is an error.
  // Its setuid and setgid files are counted in the log (no_new_privs makes
  // them harmless).
  std::filesystem::path rootfs_dir;
  std::filesystem::path rootfs_manifest;

  // The CPUs and GPUs the agent is granted (admission.h). CPUs: the agent's
  // affinity, a cpuset in its cgroup (with `limits`), what
  // /sys/devices/system/cpu/online shows it (so os.cpu_count() and nproc
  // agree) and the thread counts of OpenMP and BLAS libraries. Empty: every
  // CPU. GPUs: only <device_dir>/nvidia<N> for these N (and the driver's
  // control nodes) exist in its /dev, and CUDA_VISIBLE_DEVICES names them.
  std::vector<int> cpu_ids;
  std::vector<int> gpu_ids;
  std::filesystem::path device_dir = "/dev";
  // Recorded as given: the agent's label and the digest of its files and
  // environment, and how long the run waited to be admitted.
  std::string agent_label;
  std::string agent_digest;
  double admission_wait_s = 0;
  // Set: after the run, the agent's code/ and logs/ are copied there (regular
  // files only, nothing followed, within `keep_limits`; keep_tree.h), with
  // KEPT.txt saying what was left out and why, so that runs can be audited.
  std::optional<std::filesystem::path> artifacts_out;
  KeepLimits keep_limits;
};

// What happened to one agent run. Failures of the agent are results, not
// errors: they are recorded here.
struct RunRecord {
  std::string competition_id;
  std::string agent;  // basename of RunOptions::agent
  int64_t seed = 0;
  std::optional<int> exit_code;  // set when the agent exited by itself
  std::optional<int> signal;     // set when the agent was killed by a signal
  bool timed_out = false;        // the deadline passed before the agent exited
  double duration_s = 0;         // wall-clock time from start to exit
  int64_t time_limit_s = 0;
  bool submission_exists = false;  // a submission.csv was copied to submission_out
  int64_t submission_bytes = 0;
  Isolation isolation = Isolation::kNone;  // what the agent really ran under
  Network network = Network::kUnconfined;  // kUnconfined whenever isolation is kNone
  // kAllowlist: what the agent was allowed, and what it asked the proxy for.
  std::vector<AllowedHost> allowed_hosts;
  ProxyLog connections;
  // kAllowlist through an egress gateway (EgressProxyOptions::parent_socket):
  // its socket; empty when the proxy connected to the hosts itself.
  std::string egress_gateway;
  // The names of the secrets the agent was given (never their values).
  std::vector<std::string> secret_names;
  bool quota_exceeded = false;  // stopped because the workspace outgrew its quota (bytes or inodes)
  bool out_of_memory = false;   // the kernel's OOM killer hit the agent's cgroup
  bool log_truncated = false;   // the agent wrote more than max_log_bytes

  // Who ran: the agent's label and digest, its environment's digest (as
  // given in RunOptions).
  std::string agent_label;
  std::string agent_digest;
  std::string environment_digest;
  // The budget it had: CPUs (count and list), memory and processes limits
  // (0: none), GPUs, and how long it waited for them.
  int cpus = 0;
  std::vector<int> cpu_ids;
  int64_t memory_limit_bytes = 0;
  int64_t processes_limit = 0;
  std::vector<int> gpu_ids;
  double admission_wait_s = 0;
  // What it used: CPU time of all its processes (user + system), the highest
  // memory use of its cgroup (-1: unknown), and how often fork or clone
  // failed at the processes limit (-1: unknown).
  double cpu_seconds = 0;
  int64_t memory_peak_bytes = -1;
  int64_t processes_limit_hits = -1;
  // What ended it: "agent" (it exited, or a signal it did not get from the
  // runner killed it), "time_limit", "workspace_quota" or "memory_limit"
  // (the OOM killer killed its main process), "proxy_log_quota" (its
  // requests through the egress proxy outgrew the proxy's log limit).
  std::string ended_by = "agent";
  // What was kept of code/ and logs/ (RunOptions::artifacts_out): files,
  // bytes, and entries left out.
  int64_t kept_files = 0;
  int64_t kept_bytes = 0;
  int64_t kept_skipped = 0;
};

// Builds the workspace, runs the agent in it (own process group, stdin
// /dev/null, stdout and stderr a pipe the runner copies to `log_out` up to
// max_log_bytes, minimal environment: see runner.cc), in a cgroup with
// `limits`, enforces the time limit and the workspace quota (SIGTERM to the
// group at the deadline, SIGKILL after `grace_s`), kills whatever is left of
// the group and the cgroup when the agent's main process ends, then copies
// submission/submission.csv to `submission_out` if it is a regular file of at
// most max_submission_bytes without holes, opened beneath the workspace
// (openat2 RESOLVE_BENEATH: a relative symlink that stays inside counts; an
// absolute one, `..` out, or a submission/ that is itself a link out does
// not), and deletes the workspace unless `keep_workspace`.
//
// Under bwrap (see sandbox.h), the agent sees only the system, its workspace
// (at the same absolute path) and a staged read-only copy of its executable
// and runfiles (only files inside `allowed_roots`); it runs as an
// unprivileged user with no capabilities, no_new_privs and a seccomp filter
// (sandbox_entry_main.cc); bwrap runs in a session of its own. At the deadline every process in the sandbox gets
// SIGTERM; SIGKILL to bwrap's process group then ends the sandbox's pid
// namespace, and with it every process the agent started, even those that
// left its session. The agent's exit status is the one bwrap passes on: an
// agent that a signal kills by itself is recorded as exit code 128 + signal.
// Before each run, bwrap and the sandbox entry are tried once with the run's
// own mounts and limits, running /bin/true.
//
// Returns an error for problems of the runner and for protections that
// cannot be set up: invalid options, unreadable inputs, a non-empty workspace
// or submission_out, an agent that is not an executable file, a runfile
// outside the allowed roots, failing system calls, bwrap that cannot start,
// limits that cannot be enforced.
absl::StatusOr<RunRecord> RunAgent(const RunOptions& options);

// The record as one line of JSON with a fixed key order and a trailing
// newline, e.g. {"competition_id": "x", "agent": "dummy", "seed": 0,
// "exit_code": 0, "signal": null, "timed_out": false, "duration_s": 0.012,
// "time_limit_s": 60, "submission_exists": true, "submission_bytes": 42,
// "isolation": "bwrap", "network": "deny", "quota_exceeded": false,
// "out_of_memory": false, "log_truncated": false, "agent_label": "//a:b",
// "agent_digest": "...", "environment_digest": "...", "cpus": 2, "cpu_ids":
// "0-1", "memory_limit_bytes": 2147483648, "processes_limit": 4096,
// "gpu_ids": "", "admission_wait_s": 0.000, "cpu_seconds": 1.234,
// "memory_peak_bytes": 123456, "processes_limit_hits": 0, "ended_by":
// "agent"}. duration_s, admission_wait_s and cpu_seconds have exactly 3
// decimals; they and memory_peak_bytes are measurements, everything else is
// deterministic.
std::string RunRecordToJson(const RunRecord& record);

// Makes the calling process a child subreaper (prctl PR_SET_CHILD_SUBREAPER),
// so that orphaned descendants of its agents become its children and
// RunOptions::kill_all_children can reach them.
absl::Status BecomeChildSubreaper();

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_RUNNER_H_
