#ifndef MLEBENCH_AGENT_RUNNER_REMOVE_TREE_H_
#define MLEBENCH_AGENT_RUNNER_REMOVE_TREE_H_

#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// Removes `name` in the directory `parent_fd` and, when it is a directory,
// everything under it: the runner's way to delete what an agent made (its
// workspace) and what it staged for it, whatever shape the tree has.
//   - Depth: iterative, with the path kept on the heap (a name and an inode
//     per level), never on the stack; at most 32 directories are open at a
//     time, and a directory whose descriptor was given up is reopened through
//     ".." of its child and checked to be the same inode (a tree that changes
//     underneath is an error, never a removal elsewhere).
//   - Width: a directory's files are unlinked as they are listed; only the
//     names of its subdirectories are kept until they are done.
//   - Modes: a directory that cannot be read, searched or written is made
//     0700 first (files are never touched: a hard link shares its inode, and
//     its mode, with a source).
//   - Symlinks are removed, never followed; names are taken as raw bytes.
//   - Mount points (a directory on another file system than `name`) are
//     never entered: FailedPreconditionError naming it.
// A missing `name` is not an error. Errors name the top of the tree and the
// entry at which removal stopped; what could be removed by then is gone.
absl::Status RemoveTreeAt(int parent_fd, const std::string& name, absl::string_view shown);

// RemoveTreeAt for a path: its last component in its parent (symlinks in the
// parent are followed, the last component's never). A missing path is not an
// error.
absl::Status RemoveTree(const std::filesystem::path& path);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_REMOVE_TREE_H_
