// The runner's child processes: starting one with its output piped into a
// capped log, the time limit and quota checks, and killing what is left.
// For agent_runner/runner.cc and sandbox.cc (the sandbox's probe); not for
// other callers. It knows nothing of the sandbox: what a sandboxed child
// needs (a session of its own, how its processes are signalled) comes in
// ChildSpec.
#ifndef MLEBENCH_AGENT_RUNNER_INTERNAL_CHILD_PROCESS_H_
#define MLEBENCH_AGENT_RUNNER_INTERNAL_CHILD_PROCESS_H_

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/internal/file_ops.h"
#include "agent_runner/secrets.h"

namespace mlebench::runner_internal {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Writes "run_agent: cannot execute the agent (errno N)" using only
// async-signal-safe calls, for the child between fork and exec.
void WriteExecFailure(int fd, int error);

// The agent's log: everything it writes (through a pipe) up to a cap, and
// the runner's own notes, which are always kept. Only the runner holds the
// file, so an agent cannot truncate or rewrite it (reopening /dev/stdout gives
// it the pipe again). With a redactor, the agent's secrets never reach the
// file (secrets.h).
class LogSink {
 public:
  LogSink(int fd, int64_t cap, SecretRedactor* redactor = nullptr)
      : fd_(fd), cap_(cap), redactor_(redactor) {}

  void Agent(const char* data, size_t size) {
    if (redactor_ != nullptr && !redactor_->empty()) {
      const std::string text = redactor_->Feed(absl::string_view(data, size));
      Keep(text.data(), text.size());
      return;
    }
    Keep(data, size);
  }
  void Note(absl::string_view text) { WriteAll(text.data(), text.size()); }
  // Says how much was dropped, if anything; once, at the end.
  void Finish() {
    if (redactor_ != nullptr) {
      const std::string rest = redactor_->Flush();
      Keep(rest.data(), rest.size());
    }
    if (dropped_ > 0) {
      Note(absl::StrCat("run_agent: the log was cut at ", cap_, " bytes of agent output; ",
                        dropped_, " more bytes were dropped\n"));
    }
  }
  bool truncated() const { return dropped_ > 0; }

 private:
  void Keep(const char* data, size_t size) {
    const int64_t room = std::max<int64_t>(cap_ - written_, 0);
    const size_t kept = static_cast<size_t>(std::min<int64_t>(room, static_cast<int64_t>(size)));
    WriteAll(data, kept);
    written_ += static_cast<int64_t>(kept);
    dropped_ += static_cast<int64_t>(size - kept);
  }
  void WriteAll(const char* data, size_t size) {
    while (size > 0) {
      const ssize_t n = write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // a full disk loses log text, never the run
      data += n;
      size -= static_cast<size_t>(n);
    }
  }

  int fd_;
  int64_t cap_;
  SecretRedactor* redactor_;
  int64_t written_ = 0;
  int64_t dropped_ = 0;
};

// Moves what is in the pipe to the log; false at end of file.
bool DrainPipe(int pipe_fd, LogSink& log);

enum class WaitResult { kExited, kDeadline, kOverQuota };

constexpr auto kQuotaCheckInterval = std::chrono::seconds(2);

// Waits until `pid` has exited (without reaping it, so that its process group
// id stays reserved), `deadline` passes, or `over_quota` (asked every
// kQuotaCheckInterval) says so, copying the agent's output from `pipe_fd`
// (non-blocking; -1: none) to `log` meanwhile. Sleeps in poll() on a pidfd
// and the pipe; where pidfds are missing, in short naps.
WaitResult WaitForExit(pid_t pid, int pidfd, Clock::time_point deadline, int pipe_fd,
                       LogSink* log, const std::function<bool(pid_t)>& over_quota);

// Kills and reaps every child of this process but those in `spared` (the
// workspace's janitor), until none is left.
void KillAndReapAllChildren(const std::vector<pid_t>& spared);

// How to start a child process and when to end it.
struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is the executable's absolute path
  std::vector<std::string> env;
  fs::path cwd;
  // Receives stdout and stderr (stdin is /dev/null): either `output_fd`
  // directly, or, with `log`, a pipe the runner copies into it.
  int output_fd = -1;
  LogSink* log = nullptr;
  // The owner the pipe is given, so that an agent running as another user
  // can reopen /dev/stdout and /dev/stderr (tee /dev/stderr, > /dev/stdout).
  std::optional<std::pair<uid_t, gid_t>> pipe_owner;
  // Descriptors the child keeps (bwrap's --args and --seccomp); every other
  // descriptor above stderr is closed.
  std::vector<int> inherited_fds;
  // The child gets a session of its own (setsid: no controlling terminal
  // reachable) rather than only a process group of its own (setpgid). Either
  // way its pid is its group's id, which the final SIGKILL goes to.
  bool own_session = false;
  // How the SIGTERM of the deadline (or of over_quota) reaches the child's
  // processes; unset: kill(-pid, SIGTERM), the child's process group. (bwrap
  // would end its sandbox at once on SIGTERM: Sandbox::Child signals the
  // processes inside instead.)
  std::function<void(pid_t child, int signal)> signal_processes;
  // The child joins it before exec; whatever is left in it is killed at the
  // end.
  const AgentCgroup* cgroup = nullptr;
  // Non-empty: the CPUs the child (and so everything it starts) runs on; the
  // cgroup's cpuset, where it has one, keeps the agent from widening it.
  std::vector<int> cpu_affinity;
  // Asked every few seconds with the child's pid; true stops the child as
  // the deadline would.
  std::function<bool(pid_t child)> over_quota;
  int64_t time_limit_s = 0;
  double grace_s = 0;
  bool kill_all_children = false;
  // Children that kill_all_children leaves alone.
  std::vector<pid_t> spared_children;
};

struct ChildOutcome {
  int wait_status = 0;
  bool timed_out = false;
  bool over_quota = false;
  double duration_s = 0;
};

// Runs the child in its own process group, enforces the time limit and kills
// the whole group when the main process ends.
absl::StatusOr<ChildOutcome> RunChild(const ChildSpec& spec);

}  // namespace mlebench::runner_internal

#endif  // MLEBENCH_AGENT_RUNNER_INTERNAL_CHILD_PROCESS_H_
