#include "agent_runner/internal/child_process.h"

#include <fcntl.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/processes.h"

namespace mlebench::runner_internal {

void WriteExecFailure(int fd, int error) {
  char digits[16];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + error % 10);
    error /= 10;
  } while (error > 0 && n < 15);
  constexpr char kPrefix[] = "run_agent: cannot execute the agent (errno ";
  ssize_t ignored = write(fd, kPrefix, sizeof(kPrefix) - 1);
  while (n > 0) ignored = write(fd, &digits[--n], 1);
  ignored = write(fd, ")\n", 2);
  (void)ignored;
}

bool DrainPipe(int pipe_fd, LogSink& log) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(pipe_fd, buffer, sizeof(buffer));
    if (n > 0) {
      log.Agent(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0;  // 0: every writer is gone; EAGAIN: nothing more for now
  }
}

WaitResult WaitForExit(pid_t pid, int pidfd, Clock::time_point deadline, int pipe_fd,
                       LogSink* log, const std::function<bool(pid_t)>& over_quota) {
  Clock::time_point next_quota_check = Clock::now() + kQuotaCheckInterval;
  bool pipe_open = pipe_fd >= 0;
  for (;;) {
    if (pipe_open) pipe_open = DrainPipe(pipe_fd, *log);
    siginfo_t info;
    std::memset(&info, 0, sizeof(info));
    if (waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
      return WaitResult::kExited;
    }
    Clock::time_point now = Clock::now();
    if (over_quota && now >= next_quota_check) {
      if (over_quota(pid)) return WaitResult::kOverQuota;
      now = Clock::now();
      next_quota_check = now + kQuotaCheckInterval;
    }
    if (now >= deadline) return WaitResult::kDeadline;
    Clock::time_point wake = deadline;
    if (over_quota) wake = std::min(wake, next_quota_check);
    const auto remaining_ms = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
    const int timeout_ms = static_cast<int>(std::clamp<int64_t>(remaining_ms, 1, 1'000'000));
    if (pidfd >= 0) {
      struct pollfd fds[2] = {{pidfd, POLLIN, 0}, {pipe_fd, POLLIN, 0}};
      poll(fds, pipe_open ? 2 : 1, timeout_ms);
    } else {
      usleep(static_cast<useconds_t>(std::min(timeout_ms, 10)) * 1000);
    }
  }
}

void KillAndReapAllChildren(const std::vector<pid_t>& spared) {
  for (;;) {
    std::vector<pid_t> children = ChildrenOf(getpid());
    std::erase_if(children, [&](pid_t child) {
      return std::find(spared.begin(), spared.end(), child) != spared.end();
    });
    if (children.empty()) return;
    for (pid_t child : children) kill(child, SIGKILL);
    for (pid_t child : children) {
      while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
}

absl::StatusOr<ChildOutcome> RunChild(const ChildSpec& spec) {
  // Everything the child needs is prepared before fork(): after it, only
  // async-signal-safe calls are allowed.
  std::vector<char*> argv_ptrs;
  for (const std::string& arg : spec.argv) argv_ptrs.push_back(const_cast<char*>(arg.c_str()));
  argv_ptrs.push_back(nullptr);
  std::vector<char*> env_ptrs;
  for (const std::string& var : spec.env) env_ptrs.push_back(const_cast<char*>(var.c_str()));
  env_ptrs.push_back(nullptr);
  const std::string cwd_string = spec.cwd.string();
  std::vector<int> inherited_fds = spec.inherited_fds;
  std::sort(inherited_fds.begin(), inherited_fds.end());
  FileDescriptor dev_null(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (dev_null.get() < 0) return ErrnoError("cannot open", "/dev/null", errno);
  FileDescriptor output_read;
  FileDescriptor output_write;
  int output_fd = spec.output_fd;
  if (spec.log != nullptr) {
    int output_pipe[2];
    if (pipe2(output_pipe, O_CLOEXEC) != 0) {
      return ErrnoError("cannot create a pipe for", spec.argv[0], errno);
    }
    output_read = FileDescriptor(output_pipe[0]);
    output_write = FileDescriptor(output_pipe[1]);
    fcntl(output_read.get(), F_SETFL, O_NONBLOCK);
    output_fd = output_write.get();
    if (spec.pipe_owner.has_value() &&
        fchown(output_write.get(), spec.pipe_owner->first, spec.pipe_owner->second) != 0) {
      return ErrnoError("cannot hand over", "the agent's output pipe", errno);
    }
  }
  // The child closes its end once its process group exists; until then
  // kill(-pid) could miss it.
  int started_pipe[2];
  if (pipe2(started_pipe, O_CLOEXEC) != 0)
    return ErrnoError("cannot create a pipe for", spec.argv[0], errno);
  FileDescriptor started_read(started_pipe[0]);
  FileDescriptor started_write(started_pipe[1]);
  const AgentCgroup* cgroup = spec.cgroup;
  cpu_set_t affinity;
  CPU_ZERO(&affinity);
  for (const int cpu : spec.cpu_affinity) {
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &affinity);
  }

  const Clock::time_point start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) return ErrnoError("cannot fork to run", spec.argv[0], errno);
  if (pid == 0) {
    if (spec.own_session) {
      setsid();
    } else {
      setpgid(0, 0);
    }
    // Start from default signal handling whatever the runner inherited:
    // ignored signals would otherwise stay ignored across exec.
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, nullptr);
    for (int sig = 1; sig < NSIG; ++sig) {
      if (sig != SIGKILL && sig != SIGSTOP) signal(sig, SIG_DFL);
    }
    if (dup2(dev_null.get(), STDIN_FILENO) < 0 || dup2(output_fd, STDOUT_FILENO) < 0 ||
        dup2(output_fd, STDERR_FILENO) < 0) {
      _exit(127);
    }
    if (cgroup != nullptr && !cgroup->JoinFromChild()) {
      constexpr char kMessage[] = "run_agent: cannot join the agent's cgroup\n";
      ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
      (void)ignored;
      _exit(127);
    }
    if (!spec.cpu_affinity.empty() && sched_setaffinity(0, sizeof(affinity), &affinity) != 0) {
      constexpr char kMessage[] = "run_agent: cannot set the agent's CPU affinity\n";
      ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
      (void)ignored;
      _exit(127);
    }
    // Best effort (the runner's own fds are O_CLOEXEC anyway); this also
    // closes the started pipe.
    unsigned next = 3;
    for (const int fd : inherited_fds) {
      fcntl(fd, F_SETFD, 0);
      if (static_cast<unsigned>(fd) > next) close_range(next, static_cast<unsigned>(fd) - 1, 0);
      next = static_cast<unsigned>(fd) + 1;
    }
    close_range(next, ~0U, 0);
    if (chdir(cwd_string.c_str()) != 0) {
      WriteExecFailure(STDERR_FILENO, errno);
      _exit(127);
    }
    execve(argv_ptrs[0], argv_ptrs.data(), env_ptrs.data());
    WriteExecFailure(STDERR_FILENO, errno);
    _exit(127);
  }
  started_write.Close();
  output_write.Close();
  char ignored;
  while (read(started_read.get(), &ignored, 1) < 0 && errno == EINTR) {
  }
  FileDescriptor pidfd(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
  if (pidfd.get() >= 0) fcntl(pidfd.get(), F_SETFD, FD_CLOEXEC);

  ChildOutcome outcome;
  WaitResult waited = WaitForExit(pid, pidfd.get(), start + std::chrono::seconds(spec.time_limit_s),
                                  output_read.get(), spec.log, spec.over_quota);
  if (waited != WaitResult::kExited) {
    outcome.timed_out = waited == WaitResult::kDeadline;
    outcome.over_quota = waited == WaitResult::kOverQuota;
    if (spec.signal_processes) {
      spec.signal_processes(pid, SIGTERM);
    } else {
      kill(-pid, SIGTERM);
    }
    const auto grace =
        std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spec.grace_s));
    WaitForExit(pid, pidfd.get(), Clock::now() + grace, output_read.get(), spec.log, {});
  }
  // The main process is a zombie or still running, so the group id is still
  // ours: kill whatever is left of the group (daemons, stragglers; under
  // bwrap, the sandbox's init, whose death ends every process inside).
  kill(-pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return ErrnoError("cannot wait for", spec.argv[0], errno);
  }
  outcome.wait_status = status;
  outcome.duration_s = std::chrono::duration<double>(Clock::now() - start).count();
  if (cgroup != nullptr) cgroup->KillAll();
  if (spec.kill_all_children) KillAndReapAllChildren(spec.spared_children);
  // What the agent wrote before it ended; a writer that outlived it (only
  // possible without bwrap and kill_all_children) cannot hold the run up.
  if (output_read.get() >= 0) DrainPipe(output_read.get(), *spec.log);
  return outcome;
}

}  // namespace mlebench::runner_internal
