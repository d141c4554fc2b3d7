#ifndef MLEBENCH_AGENT_RUNNER_RUNFILES_STAGE_H_
#define MLEBENCH_AGENT_RUNNER_RUNFILES_STAGE_H_

#include <cstdint>
#include <limits>
#include <filesystem>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// A staged runfiles tree is a plain, symlink-free copy of an agent's runfiles
// that the sandbox can mount with a single read-only bind: one bwrap argument
// however many files there are, and nothing reachable through it but files
// whose real location the policy allows (a symlink such as `rootfs -> /` is
// refused instead of exposing the host).

// What may be staged. Every entry is judged by its fully resolved path (every
// symlink followed, as realpath(3) does), never by the path it was found at.
struct StagingPolicy {
  // Absolute directories; a staged entry (file or directory) must resolve
  // inside one of them. They are resolved themselves first (symlinks in them
  // followed), so that a root reached through a symlink still matches. For
  // StageRunfiles, the tree being staged (`source`, resolved) counts as
  // allowed too: its real directories and files (Bazel's MANIFEST) are what
  // is being staged.
  std::vector<std::filesystem::path> allowed_roots;
  // Absolute; resolved entries inside these are refused (e.g. a
  // competition's private answers, or the whole output base). Resolved like
  // allowed_roots; one that does not exist yet still applies, lexically.
  // When an entry lies inside both an allowed and a forbidden root, the more
  // specific (longer) root decides, a tie refusing it: the agent's own
  // outputs are allowed inside a forbidden output base, and a data dir's
  // private/ is refused inside an allowed source tree, whatever holds what.
  std::vector<std::filesystem::path> forbidden_roots;
  // Also refuse an entry inside a directory that looks like a holder of
  // answers or of copies of them, wherever it is, below the allowed root
  // that holds the entry: a Bazel output base (execroot/ and action_cache/),
  // disk cache (ac/ and cas/), repository cache (content_addressable/) or
  // install base (embedded_tools/), a data dir's competition folder
  // (prepared/private/), or prepared data (public/ and private/ in a
  // directory named prepared or *_data). So an output base or a disk cache
  // that the user put inside the source tree is refused as such.
  bool refuse_answer_holders = false;
  // Most bytes copied in all (hard links cost none); beyond it,
  // ResourceExhausted before the file that would pass it is copied. A file
  // reached by several paths (symlinks, directories reached twice) is
  // copied once, and linked to that copy from its other paths.
  int64_t max_copied_bytes = std::numeric_limits<int64_t>::max();
  // Files plus directories staged (the destination itself included); more is
  // an error. Bounds the work when directory symlinks fan out (a symlinked
  // directory reached twice is staged twice).
  int64_t max_entries = 1'000'000;
  // False: never hard-link, always copy (e.g. when the staged tree must not
  // share inodes with its sources).
  bool hard_links = true;
};

struct StagingStats {
  int64_t files = 0;
  int64_t directories = 0;  // the destination itself included
  int64_t hard_links = 0;   // files staged as a hard link to their source
  int64_t copies = 0;       // files staged as a copy
  int64_t bytes_copied = 0;
  int64_t copies_linked = 0;  // further paths to a copied file, linked to its copy
  int64_t dangling_skipped = 0;  // symlinks whose target does not exist
};

// Recreates the tree at `source` (a directory, typically <agent>.runfiles,
// whose entries are mostly symlinks; `source` itself may be reached through
// symlinks) at `destination`, which must not exist and is created; its parent
// must exist. The staged tree has no symlinks: each entry, in sorted order, is
// resolved fully and then
//   - a directory is staged recursively (its entries resolved in turn);
//   - a regular file is hard-linked (link(2) of the resolved file, never of a
//     symlink) or copied byte for byte. Its mode is 0555 when the source is
//     executable by its owner, else 0444. A hard link shares the source's
//     inode, and so its mode: files are linked only when their mode already
//     is exactly that (Bazel's outputs are), since changing it would change
//     the source; others are copied, as are files that cannot be linked
//     (another file system, EPERM, EMLINK, ...);
//   - a dangling symlink (its target, or a directory on the way, is missing)
//     is skipped and counted: Bazel leaves some.
// Directories are 0555 once filled. Nothing is ever written through a
// symlink (names are created with O_EXCL/O_NOFOLLOW semantics, relative to
// directories opened without following symlinks), and no FIFO or device is
// ever opened. After linking or opening a file it is checked to still be the
// regular file that was resolved, so a swap in the source is an error, not a
// leak.
// Errors, with the entry's path relative to `source` and its resolved path:
// an entry resolving outside every allowed root (PermissionDenied) or inside
// a forbidden root (PermissionDenied, naming that root); an entry that is
// neither a regular file nor a directory, e.g. a FIFO, socket or device
// (FailedPrecondition); a directory that resolves to one of its own
// ancestors, a cycle (FailedPrecondition); more than max_entries
// (ResourceExhausted); a symlink loop (ELOOP: unresolvable, not dangling);
// `destination` existing (AlreadyExists); relative roots, `destination`
// inside `source`, or an entry resolving into `destination`
// (InvalidArgument); I/O errors. On any error after `destination` was
// created, whatever was staged is removed again.
absl::StatusOr<StagingStats> StageRunfiles(const std::filesystem::path& source,
                                           const std::filesystem::path& destination,
                                           const StagingPolicy& policy);

// One file (e.g. the agent's executable) staged at `destination` by the rules
// of StageRunfiles: `source` resolved fully, judged by the policy (without
// the implicit allowance of StageRunfiles's tree), hard-linked or copied.
// A directory or special file at `source` is an error (FailedPrecondition),
// and so is a dangling one (NotFound).
absl::StatusOr<StagingStats> StageFile(const std::filesystem::path& source,
                                       const std::filesystem::path& destination,
                                       const StagingPolicy& policy);

// Removes a tree made by StageRunfiles (or a file made by StageFile): its
// directories are read-only, so a plain recursive removal fails for anyone
// but root. RemoveTreeAt (remove_tree.h) on the destination's last
// component: only directories are made writable again, never files, which
// may share their inode (and mode) with a source. A missing `destination` is
// not an error.
absl::Status RemoveStaged(const std::filesystem::path& destination);

// Checks a directory that is to be bound read-only into the sandbox as a
// whole (an agent's environment), without copying it. `dir` must be resolved
// and inside the resolved allowed root `floor`. Refuses (PermissionDenied)
// `dir`, a directory between it and `floor`, or a directory below it that
// looks like a holder of answers (StagingPolicy::refuse_answer_holders: an
// output base, a disk cache, a data dir, prepared data, ...); and
// (FailedPrecondition) a socket, FIFO or device node in it, or a mount point
// inside it (another mount id: a bind mount of the same file system too),
// which the bind would expose. Walks without following symlinks: inside the
// sandbox they resolve in the sandbox's own file system. More than
// `max_entries` entries is ResourceExhausted.
absl::Status CheckTreeToBind(const std::filesystem::path& dir, const std::filesystem::path& floor,
                             int64_t max_entries = 1'000'000);

// True when `path` is `root` or inside it, compared component by component
// after lexical normalization (so /a/bc is not inside /a/b, and trailing
// slashes do not matter). No symlink is resolved: pass resolved paths.
bool IsInside(const std::filesystem::path& path, const std::filesystem::path& root);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_RUNFILES_STAGE_H_
