#ifndef MLEBENCH_AGENT_RUNNER_KEEP_TREE_H_
#define MLEBENCH_AGENT_RUNNER_KEEP_TREE_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench {

// Bounds on what a run keeps of the code and logs its agent left, so that the
// runs can be reviewed for rule violations (upstream's audits).
struct KeepLimits {
  int64_t max_bytes = int64_t{64} << 20;  // all files together
  int64_t max_files = 10'000;
  int max_depth = 32;  // directories below each kept directory
};

// What was kept, and what was not and why.
struct KeepStats {
  int64_t files = 0;
  int64_t bytes = 0;
  int64_t skipped = 0;
  // One line per skipped entry: its path (escaped for display) and why.
  std::vector<std::string> notes;
};

// Copies the regular files under `workspace`/`relative` (a directory the
// agent wrote, e.g. code/) to `out`/`relative`, keeping the tree. The agent is
// hostile and its processes must be gone: the directory is opened beneath the
// workspace without following any symlink (openat2 RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS), and so is everything in it; symlinks, FIFOs, sockets
// and devices are skipped, never followed or opened; so are names outside
// [A-Za-z0-9._+-] (they would not survive every tool that reads the outputs),
// directories deeper than max_depth, and files beyond max_files or
// max_bytes (a file that does not fit whole is skipped, not cut). A
// missing `relative` keeps nothing. `stats` accumulates over calls. Errors
// only for the runner's own failures (cannot create or write `out`).
absl::Status KeepTree(const std::filesystem::path& workspace, const std::string& relative,
                      const std::filesystem::path& out, const KeepLimits& limits,
                      KeepStats& stats);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_KEEP_TREE_H_
