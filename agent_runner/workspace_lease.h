#ifndef MLEBENCH_AGENT_RUNNER_WORKSPACE_LEASE_H_
#define MLEBENCH_AGENT_RUNNER_WORKSPACE_LEASE_H_

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// One run's hold on its workspace directory, from before it exists until
// after it is gone, so that nothing an agent leaves behind outlives the run
// or breaks the next one:
//   - a lock: `<workspace>.lock` beside it, flock()ed for the whole run;
//   - stale removal: a workspace (and its staging directory,
//     `<workspace>.sandbox`) found together with a lock file nobody holds was
//     left by a run that died, and is removed first. One without a lock file
//     the runner did not make: "must be absent or an empty directory", as
//     before;
//   - a janitor: a process of its own session, forked when the lease is
//     taken, that waits on a pipe from the runner. If the runner ends without
//     releasing the lease (killed: SIGKILL from Bazel on an interrupt or a
//     timeout, a crash), the janitor kills and removes the cgroups it was
//     told of (AddCgroupDirectories), removes the workspace and the staging
//     directory (RemoveTree: any depth, width, modes) and the lock file, then
//     exits; it holds the lock meanwhile, so a new run of the same workspace
//     waits for it;
//   - Release(): the runner's own removal, after which the janitor exits
//     doing nothing.
// The agent cannot reach the janitor: it runs in a pid namespace of its own
// (under bwrap), and as another user when the runner is root.
class WorkspaceLease {
 public:
  // Takes `workspace` (absolute) for one run, waiting up to `wait` for a run
  // or janitor that holds it, then creates it (and its parents) as an empty
  // directory. Errors: a non-empty workspace without a lock file, a lock
  // still held after `wait`, failures to remove what a dead run left, to
  // create, lock or fork.
  static absl::StatusOr<WorkspaceLease> Acquire(const std::filesystem::path& workspace,
                                                std::chrono::seconds wait);

  WorkspaceLease(WorkspaceLease&& other) noexcept;
  WorkspaceLease& operator=(WorkspaceLease&& other) = delete;
  WorkspaceLease(const WorkspaceLease&) = delete;
  WorkspaceLease& operator=(const WorkspaceLease&) = delete;
  // Release(keep_workspace) when not released yet, its error on stderr.
  ~WorkspaceLease();

  const std::filesystem::path& workspace() const { return workspace_; }
  // Where the agent's files are staged: beside the workspace, never in it.
  std::filesystem::path staging() const;
  // The janitor, which the runner must not kill with its other children.
  pid_t janitor() const { return janitor_; }

  // Cgroup directories the janitor kills and removes should the runner die.
  void AddCgroupDirectories(const std::vector<std::string>& dirs);

  // Removes the staging directory and, unless `keep_workspace`, the
  // workspace; then removes the lock file, tells the janitor it is done, and
  // waits for it. Errors name what could not be removed (the lock file then
  // stays, so that the next run removes it).
  absl::Status Release(bool keep_workspace);

  // Whether a workspace should be kept when the lease ends in its destructor.
  void set_keep_workspace(bool keep) { keep_workspace_ = keep; }

 private:
  WorkspaceLease() = default;

  std::filesystem::path workspace_;
  int lock_fd_ = -1;
  int janitor_pipe_ = -1;  // the runner's end; its closing without "done" starts the janitor
  pid_t janitor_ = -1;
  bool released_ = true;
  bool keep_workspace_ = false;
};

// The Bazel output base whose execroot is the working directory (where a
// build action runs), or nullopt elsewhere (a remote worker, a shell).
std::optional<std::filesystem::path> OutputBaseOfExecroot();

// Where a runner in an execroot keeps workspaces: beside the execroot, in
// <output base>/mlebench-workspaces/<workspace name>/, where `bazel clean`
// never walks a tree an agent made (./bazelw clean removes what is left
// there); nullopt where the working directory is no execroot.
std::optional<std::filesystem::path> WorkspacesBesideExecroot();

// `<workspace>.lock`, `<workspace>.sandbox`.
std::filesystem::path WorkspaceLockFile(const std::filesystem::path& workspace);
std::filesystem::path WorkspaceStagingDir(const std::filesystem::path& workspace);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_WORKSPACE_LEASE_H_
