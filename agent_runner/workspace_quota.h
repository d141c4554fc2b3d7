#ifndef MLEBENCH_AGENT_RUNNER_WORKSPACE_QUOTA_H_
#define MLEBENCH_AGENT_RUNNER_WORKSPACE_QUOTA_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// What a workspace holds: bytes on disk (blocks, so sparse files count as
// what they take) and inodes (every name: a hard link counts once per name,
// an over-count, never an under-count).
struct WorkspaceUsage {
  int64_t bytes = 0;
  int64_t inodes = 0;
  // Some directory could not be read (made unreadable) or nested deeper
  // than kMaxWorkspaceDepth: the totals are unknown, which counts as over
  // the quota, so that hiding files from the walk stops the agent.
  bool unmeasurable = false;
};

// How deep the walk follows directories; a deeper one makes the usage
// unmeasurable. (Removal has no such limit: remove_tree.h.)
inline constexpr int kMaxWorkspaceDepth = 256;

// Walks the workspace: every directory is opened relative to its parent
// with O_NOFOLLOW, so an agent that swaps a directory for a symlink while
// the runner walks cannot send the walk (which runs with the runner's
// privileges) out of the workspace; nor does it cross into other file
// systems. The whole workspace is walked, data/ included: what the runner
// put there is the baseline WorkspaceQuota subtracts.
WorkspaceUsage MeasureWorkspace(const std::filesystem::path& workspace);

// Adds to `usage` the regular files on `device` that `processes` hold open
// (the descriptor table of each of their threads, /proc/<tid>/fd: a thread
// may have a table of its own, and a process whose first thread exited
// holds its files in the others') or mapped (/proc/<pid>/maps) and that
// have no name any more, each inode once: blocks as stat says, or for a
// mapping that cannot be stat()ed, its length. A thread that is gone, a
// zombie, or exiting (it becomes a zombie within about 50 ms) is skipped;
// one whose descriptors cannot be read makes `usage` unmeasurable.
void AddUnlinkedFiles(const std::vector<pid_t>& processes, dev_t device, WorkspaceUsage& usage);

// The agent's share of the disk in its workspace: bytes and inodes beyond
// what the workspace held when the agent started. Defaults (0): half the
// free space and half the free inodes of the workspace's file system (or 10
// million inodes where it does not count them), as both are shared with
// every other user of the machine.
class WorkspaceQuota {
 public:
  // Measures the baseline now. Errors when the file system's free space
  // cannot be read, or it has none.
  static absl::StatusOr<WorkspaceQuota> Start(const std::filesystem::path& workspace,
                                              int64_t quota_bytes, int64_t quota_inodes);

  int64_t bytes() const { return quota_bytes_; }
  int64_t inodes() const { return quota_inodes_; }

  // Whether the agent is over its quota, or its files cannot all be
  // measured; the reason is in why(). Its files are those the walk finds
  // plus those that `processes` (the agent's) hold open or mapped on the
  // workspace's file system without a name any more (unlinked, O_TMPFILE):
  // the walk cannot see them, the disk holds them. A process whose open
  // files cannot be read makes the usage unmeasurable. A walk of a million
  // files takes about a second, so this walks at most once per four times
  // the last walk took (and answers from the last walk in between): the
  // walk never takes more than a fifth of a core, however many files the
  // agent makes.
  bool Over(const std::vector<pid_t>& processes = {});
  // What Over() found, e.g. "1000001 inodes, more than the quota of 1000000".
  const std::string& why() const { return why_; }

 private:
  WorkspaceQuota() = default;

  std::filesystem::path workspace_;
  dev_t device_ = 0;
  int64_t quota_bytes_ = 0;
  int64_t quota_inodes_ = 0;
  WorkspaceUsage baseline_;
  std::chrono::steady_clock::time_point next_walk_;
  bool over_ = false;
  std::string why_;
};

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_WORKSPACE_QUOTA_H_
