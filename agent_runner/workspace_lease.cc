#include "agent_runner/workspace_lease.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/remove_tree.h"
#include "base/display_text.h"
#include "base/files.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status ErrnoError(absl::string_view what, const fs::path& path, int error) {
  return absl::InternalError(absl::StrCat(what, " ", path.string(), ": ", std::strerror(error)));
}

struct LockFile {
  int fd = -1;
  bool existed = false;  // left by an earlier run (or held by a live one)
};

// Opens and flock()s `path`, waiting up to `wait`; the descriptor is the
// lock file at `path` now (not one unlinked by its last holder meanwhile).
absl::StatusOr<LockFile> TakeLock(const fs::path& path, std::chrono::seconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    LockFile lock;
    lock.fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lock.fd < 0 && errno == EEXIST) {
      lock.existed = true;
      lock.fd = open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
      if (lock.fd < 0 && errno == ENOENT) continue;  // released meanwhile
    }
    if (lock.fd < 0) return ErrnoError("cannot open the lock file", path, errno);
    while (flock(lock.fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) {
        const int error = errno;
        close(lock.fd);
        return ErrnoError("cannot lock", path, error);
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        close(lock.fd);
        return absl::UnavailableError(absl::StrCat(
            "the workspace is in use: ", path.string(),
            " is held by another run of the same agent action, or by the janitor removing what "
            "a killed run left (waited ", wait.count(), " s)"));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    struct stat held, now;
    if (fstat(lock.fd, &held) == 0 && stat(path.c_str(), &now) == 0 &&
        held.st_dev == now.st_dev && held.st_ino == now.st_ino) {
      return lock;
    }
    close(lock.fd);  // its holder removed it as we waited: take the new one
  }
}

// The janitor's life: collect cgroup directories from the runner until it
// says "done" (exit) or the pipe closes without it (the runner died: clean up).
[[noreturn]] void JanitorMain(int pipe_fd, const fs::path& workspace) {
  std::string received;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(pipe_fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    received.append(buffer, static_cast<size_t>(n));
    if (received.find("done\n") != std::string::npos) _exit(0);
  }
  std::vector<std::string> cgroups;
  size_t start = 0;
  for (size_t end; (end = received.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = received.substr(start, end - start);
    if (line.rfind("cgroup ", 0) == 0) cgroups.push_back(line.substr(7));
  }
  // The sandbox dies with the runner (bwrap's --die-with-parent); whatever
  // is left in its cgroups is killed, then the files go. A few tries: the
  // last processes may still be writing as they die.
  if (!cgroups.empty()) AgentCgroup::RemoveLeftover(cgroups).IgnoreError();
  bool removed = false;
  for (int attempt = 0; attempt < 5 && !removed; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200 << attempt));
    removed = RemoveTree(WorkspaceStagingDir(workspace)).ok() && RemoveTree(workspace).ok();
  }
  if (removed) unlink(WorkspaceLockFile(workspace).c_str());
  _exit(removed ? 0 : 1);
}

}  // namespace

namespace {
// The working directory when it is an execroot, <output base>/execroot/<name>.
std::optional<fs::path> Execroot() {
  std::error_code ec;
  const fs::path cwd = fs::canonical(".", ec);
  if (ec || cwd.parent_path().filename() != "execroot") return std::nullopt;
  return cwd;
}
}  // namespace

std::optional<fs::path> OutputBaseOfExecroot() {
  const std::optional<fs::path> execroot = Execroot();
  if (!execroot.has_value()) return std::nullopt;
  return execroot->parent_path().parent_path();
}

std::optional<fs::path> WorkspacesBesideExecroot() {
  const std::optional<fs::path> execroot = Execroot();
  if (!execroot.has_value()) return std::nullopt;
  return execroot->parent_path().parent_path() / "mlebench-workspaces" / execroot->filename();
}

fs::path WorkspaceLockFile(const fs::path& workspace) {
  fs::path path = workspace;
  path += ".lock";
  return path;
}

fs::path WorkspaceStagingDir(const fs::path& workspace) {
  fs::path path = workspace;
  path += ".sandbox";
  return path;
}

absl::StatusOr<WorkspaceLease> WorkspaceLease::Acquire(const fs::path& workspace,
                                                       std::chrono::seconds wait) {
  if (!workspace.is_absolute()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the workspace must be an absolute path, got ", workspace.string()));
  }
  std::error_code ec;
  fs::create_directories(workspace.parent_path(), ec);
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot create ", workspace.parent_path().string(),
                                            ": ", ec.message()));
  }
  absl::StatusOr<LockFile> lock = TakeLock(WorkspaceLockFile(workspace), wait);
  if (!lock.ok()) return lock.status();
  WorkspaceLease lease;
  lease.workspace_ = workspace;
  lease.lock_fd_ = lock->fd;
  const fs::path staging = WorkspaceStagingDir(workspace);
  if (lock->existed) {
    // A run died holding this workspace (its janitor, had it lived, would
    // have removed the lock file): what it left goes first.
    for (const fs::path& left : {staging, workspace}) {
      if (absl::Status s = RemoveTree(left); !s.ok()) {
        return absl::Status(s.code(), absl::StrCat("cannot remove what a run that died left in ",
                                                   left.string(), ": ", s.message()));
      }
    }
  } else {
    for (const fs::path& dir : {workspace, staging}) {
      absl::StatusOr<bool> ok = IsAbsentOrEmptyDirectory(dir);
      if (!ok.ok()) return ok.status();
      if (!*ok) {
        // Not ours to remove: the runner made no lock file for it (and the
        // one just made goes again).
        unlink(WorkspaceLockFile(workspace).c_str());
        return absl::InvalidArgumentError(absl::StrCat(
            "workspace ", dir.string(), " must be absent or an empty directory"));
      }
    }
  }
  fs::create_directory(workspace, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create workspace ", workspace.string(),
                                                  ": ", ec.message()));

  // A socket rather than a pipe: writing to it once the janitor is gone is
  // an error (MSG_NOSIGNAL), not a SIGPIPE that would kill the runner.
  int janitor_pipe[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, janitor_pipe) != 0) {
    return ErrnoError("cannot create", "a socket pair", errno);
  }
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    close(janitor_pipe[0]);
    close(janitor_pipe[1]);
    return ErrnoError("cannot fork the janitor of", workspace, error);
  }
  if (pid == 0) {
    // A session of its own, so that the signal that kills the runner's
    // process group spares it; nothing of the runner's open but the pipe and
    // the lock (shared with the runner: held until both let go), so that
    // Bazel, reading the action's output to its end, never waits for it.
    setsid();
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null_fd >= 0) {
      for (int fd = 0; fd <= 2; ++fd) dup2(null_fd, fd);
    }
    const int keep_low = std::min(janitor_pipe[0], lock->fd);
    const int keep_high = std::max(janitor_pipe[0], lock->fd);
    close_range(3, static_cast<unsigned>(keep_low) - 1, 0);
    close_range(static_cast<unsigned>(keep_low) + 1, static_cast<unsigned>(keep_high) - 1, 0);
    close_range(static_cast<unsigned>(keep_high) + 1, ~0U, 0);
    JanitorMain(janitor_pipe[0], workspace);
  }
  close(janitor_pipe[0]);
  lease.janitor_pipe_ = janitor_pipe[1];
  lease.janitor_ = pid;
  lease.released_ = false;
  return lease;
}

WorkspaceLease::WorkspaceLease(WorkspaceLease&& other) noexcept
    : workspace_(std::move(other.workspace_)),
      lock_fd_(std::exchange(other.lock_fd_, -1)),
      janitor_pipe_(std::exchange(other.janitor_pipe_, -1)),
      janitor_(std::exchange(other.janitor_, -1)),
      released_(std::exchange(other.released_, true)),
      keep_workspace_(other.keep_workspace_) {}

WorkspaceLease::~WorkspaceLease() {
  if (!released_) {
    if (absl::Status s = Release(keep_workspace_); !s.ok()) {
      // The message names what the agent left: shown escaped.
      std::cerr << "run_agent: warning: " << EscapeForConsole(std::string(s.message()), 4000) << "\n";
    }
  }
  if (lock_fd_ >= 0) close(lock_fd_);
}

fs::path WorkspaceLease::staging() const { return WorkspaceStagingDir(workspace_); }

void WorkspaceLease::AddCgroupDirectories(const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    const std::string line = absl::StrCat("cgroup ", dir, "\n");
    // The janitor reads as it goes; a line this short is written whole.
    ssize_t ignored = send(janitor_pipe_, line.data(), line.size(), MSG_NOSIGNAL);
    (void)ignored;
  }
}

absl::Status WorkspaceLease::Release(bool keep_workspace) {
  if (released_) return absl::OkStatus();
  released_ = true;
  std::vector<std::string> problems;
  for (const fs::path& dir : {staging(), workspace_}) {
    if (dir == workspace_ && keep_workspace) continue;
    if (absl::Status s = RemoveTree(dir); !s.ok()) problems.emplace_back(s.message());
  }
  // With everything gone the lock file goes too; otherwise it stays, and the
  // next run of this workspace removes what is left.
  if (problems.empty()) unlink(WorkspaceLockFile(workspace_).c_str());
  constexpr char kDone[] = "done\n";
  ssize_t ignored = send(janitor_pipe_, kDone, sizeof(kDone) - 1, MSG_NOSIGNAL);
  (void)ignored;
  close(janitor_pipe_);
  janitor_pipe_ = -1;
  while (waitpid(janitor_, nullptr, 0) < 0 && errno == EINTR) {
  }
  janitor_ = -1;
  close(lock_fd_);
  lock_fd_ = -1;
  if (!problems.empty()) {
    return absl::InternalError(absl::StrCat("cannot delete the workspace: ",
                                            absl::StrJoin(problems, "; ")));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
