#ifndef MLEBENCH_AGENT_RUNNER_ROOTFS_H_
#define MLEBENCH_AGENT_RUNNER_ROOTFS_H_

// An agent's own root file system (mle_agent's `rootfs`; docs/agents.md,
// "Agents that bring a root file system"): a directory whose usr, bin, sbin,
// lib*, etc and opt (kRootfsSystemEntries) the sandbox shows
// instead of the host's system.
//
// Bazel never sees its files one by one: a Debian system is full of absolute
// and dangling symlinks, which Bazel 4 follows (to the host's files) or
// refuses. What stands for it in the build is its manifest, made with it
// (agent_runner/rootfs/rootfs_manifest.py) and an input of the agent action
// and of the agent's digest: one line per entry of those trees,
//
//   TYPE <tab> MODE <tab> SIZE <tab> DETAIL <tab> PATH
//
// TYPE d (directory), f (regular file) or l (symlink); MODE the permission
// bits in octal (st_mode & 07777, 4 digits); SIZE the file's bytes (0 for
// the others); DETAIL the file's SHA-256 in hex, the link's target, or "-"
// for a directory; PATH relative to the root file system ("usr",
// "usr/bin/python3"). Lines are sorted by PATH (bytewise); names and targets
// hold no tab or newline; a first line starting with '#' is a comment.
// Other kinds of files (sockets, FIFOs, devices) are not allowed.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// The top-level entries of an agent's root file system that become the
// sandbox's system. usr and etc must be directories; the others may be
// missing, directories or symlinks.
inline constexpr const char* kRootfsSystemEntries[] = {"usr",   "bin",    "sbin", "lib", "lib32",
                                                       "lib64", "libx32", "etc",  "opt"};

// What the runner found in a root file system.
struct RootfsSummary {
  int64_t entries = 0;  // directories, files and symlinks in the bound trees
  // Regular files with the setuid or setgid bit (relative paths, sorted).
  // They give nothing: the sandbox entry sets no_new_privs before the agent
  // starts, so the kernel ignores those bits (and file capabilities).
  std::vector<std::string> setid_files;
};

// Walks the bound trees of `rootfs` (kRootfsSystemEntries; nothing is
// followed) and, when `manifest` is given, compares every entry with it:
// type, mode, size of files and target of symlinks (file contents are not
// hashed again: the manifest was made from the same directory, and a changed
// size, mode or name is what a change of it shows). A difference, an entry
// of another kind (socket, FIFO, device), or a malformed manifest is
// FailedPrecondition naming the first path that differs: the directory
// changed since its manifest was made, and results would be cached under
// the wrong key. More than `max_entries` is ResourceExhausted.
absl::StatusOr<RootfsSummary> CheckRootfs(const std::filesystem::path& rootfs,
                                          const std::optional<std::string>& manifest,
                                          int64_t max_entries = 1'000'000);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_ROOTFS_H_
