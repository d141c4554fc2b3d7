#include "agent_runner/runfiles_stage.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "agent_runner/internal/file_ops.h"
#include "agent_runner/remove_tree.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

using runner_internal::FileDescriptor;

struct DirCloser {
  void operator()(DIR* dir) const { closedir(dir); }
};
using Dir = std::unique_ptr<DIR, DirCloser>;

absl::Status ErrnoError(int error, absl::string_view what) {
  return absl::ErrnoToStatus(error, what);
}

// `path` lexically normalized, without trailing slashes ("/" stays "/").
std::string Normal(const fs::path& path) {
  std::string s = path.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// IsInside for normalized strings: the hot path, no allocation.
bool InsideNormal(absl::string_view path, absl::string_view root) {
  if (root == "/") return !path.empty() && path.front() == '/';
  if (path.size() < root.size() || path.compare(0, root.size(), root) != 0) return false;
  return path.size() == root.size() || path[root.size()] == '/';
}

std::string Child(const std::string& dir, absl::string_view name) {
  return dir == "/" ? absl::StrCat("/", name) : absl::StrCat(dir, "/", name);
}

// realpath(3) of `path`; nullopt, with realpath's errno in `error`, when it
// cannot be resolved.
std::optional<std::string> RealPath(const std::string& path, int& error) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) {
    error = errno;
    return std::nullopt;
  }
  std::string result(resolved);
  free(resolved);
  return result;
}

bool SameInode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The policy's roots resolved (see StagingPolicy), as normalized strings.
struct Roots {
  std::vector<std::string> allowed;
  std::vector<std::string> forbidden;
};

absl::StatusOr<std::vector<std::string>> ResolveRoots(const std::vector<fs::path>& roots,
                                                      absl::string_view kind) {
  std::vector<std::string> resolved;
  for (const fs::path& root : roots) {
    if (!root.is_absolute()) {
      return absl::InvalidArgumentError(
          absl::StrCat(kind, " roots must be absolute, got ", root.string()));
    }
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(root, ec);
    if (ec) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot resolve the ", kind, " root ", root.string(), ": ", ec.message()));
    }
    resolved.push_back(Normal(canonical));
  }
  return resolved;
}

absl::StatusOr<Roots> ResolvePolicyRoots(const StagingPolicy& policy) {
  Roots roots;
  ASSIGN_OR_RETURN(std::vector<std::string> allowed, ResolveRoots(policy.allowed_roots, "allowed"));
  ASSIGN_OR_RETURN(std::vector<std::string> forbidden,
                   ResolveRoots(policy.forbidden_roots, "forbidden"));
  roots.allowed = std::move(allowed);
  roots.forbidden = std::move(forbidden);
  return roots;
}

// A destination split into its parent (opened) and the name to create there.
struct DestinationSlot {
  FileDescriptor parent;
  std::string name;
  std::string resolved;  // the parent resolved, plus name
};

absl::StatusOr<DestinationSlot> OpenDestinationSlot(const fs::path& destination) {
  const std::string normal = Normal(destination);
  const fs::path path(normal);
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == ".." || normal == "/") {
    return absl::InvalidArgumentError(
        absl::StrCat("not a path to create: ", destination.string()));
  }
  const std::string parent = path.has_parent_path() ? path.parent_path().string() : ".";
  // Symlinks in the parent are the caller's choice; only the name is ours.
  FileDescriptor parent_fd(open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!parent_fd.ok()) {
    return ErrnoError(errno, absl::StrCat("cannot open the parent of ", destination.string()));
  }
  int error = 0;
  const std::optional<std::string> parent_resolved = RealPath(parent, error);
  if (!parent_resolved.has_value()) {
    return ErrnoError(error, absl::StrCat("cannot resolve the parent of ", destination.string()));
  }
  return DestinationSlot{std::move(parent_fd), name, Child(*parent_resolved, name)};
}

// The names in an open directory, sorted, without "." and "..".
absl::StatusOr<std::vector<std::string>> SortedNames(int dir_fd, absl::string_view shown) {
  // fdopendir takes over its descriptor; `dir_fd` stays the caller's.
  const int list_fd = dup(dir_fd);
  if (list_fd < 0) return ErrnoError(errno, "dup");
  Dir dir(fdopendir(list_fd));
  if (dir == nullptr) {
    const int error = errno;
    close(list_fd);
    return ErrnoError(error, absl::StrCat("cannot list ", shown));
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = readdir(dir.get())) {
    const absl::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
    errno = 0;
  }
  if (errno != 0) return ErrnoError(errno, absl::StrCat("cannot list ", shown));
  std::sort(names.begin(), names.end());
  return names;
}

// Copies the open regular file `in` to `out` byte for byte.
absl::Status CopyBytes(int in, int out, int64_t& bytes, absl::string_view shown) {
  bool kernel_copy = true;
  char buffer[1 << 16];
  while (true) {
    if (kernel_copy) {
      const ssize_t n = copy_file_range(in, nullptr, out, nullptr, 1 << 30, 0);
      if (n > 0) {
        bytes += n;
        continue;
      }
      if (n == 0) return absl::OkStatus();
      // Not supported here (or across these file systems): plain reads, from
      // where the kernel stopped (the offsets moved with what it copied).
      if (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP ||
          errno == EPERM) {
        kernel_copy = false;
        continue;
      }
      if (errno == EINTR) continue;
      return ErrnoError(errno, absl::StrCat("cannot copy ", shown));
    }
    const ssize_t n = read(in, buffer, sizeof(buffer));
    if (n == 0) return absl::OkStatus();
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, absl::StrCat("cannot read ", shown));
    }
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = write(out, buffer + done, n - done);
      if (w < 0) {
        if (errno == EINTR) continue;
        return ErrnoError(errno, absl::StrCat("cannot write the copy of ", shown));
      }
      done += w;
    }
    bytes += n;
  }
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

// What the directory `dir` looks like, when it looks like a place that holds
// a competition's answers or copies of them, whatever its path: nullptr for
// anything else (a file, say). See StagingPolicy::refuse_answer_holders.
const char* AnswerHolderKind(const std::string& dir) {
  const auto in = [&dir](const char* name) { return Child(dir, name); };
  if (!IsDirectory(dir)) return nullptr;
  if (IsDirectory(in("execroot")) && IsDirectory(in("action_cache"))) return "a Bazel output base";
  if (IsDirectory(in("ac")) && IsDirectory(in("cas"))) return "a Bazel disk cache";
  if (IsDirectory(in("content_addressable"))) return "Bazel's repository cache";
  if (IsDirectory(in("embedded_tools")) &&
      (Exists(in("build-label.txt")) || Exists(in("A-server.jar")))) {
    return "a Bazel install base";
  }
  if (IsDirectory(Child(in("prepared"), "private"))) return "a competition's data directory";
  const std::string name = fs::path(dir).filename().string();
  if (IsDirectory(in("public")) && IsDirectory(in("private")) &&
      (name == "prepared" || absl::EndsWith(name, "_data"))) {
    return "a competition's prepared data";
  }
  return nullptr;
}

// Walks one source tree into one destination.
class Stager {
 public:
  Stager(const Roots& roots, const StagingPolicy& policy, std::optional<std::string> tree,
         std::optional<std::string> destination, StagingStats& stats)
      : roots_(roots),
        policy_(policy),
        tree_(std::move(tree)),
        destination_(std::move(destination)),
        stats_(stats) {}

  // Refuses `resolved` (where `rel` leads) unless the policy allows it: the
  // most specific root that holds it decides (see StagingPolicy).
  absl::Status Judge(const std::string& rel, const std::string& resolved) {
    if (destination_.has_value() && InsideNormal(resolved, *destination_)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "runfiles entry ", rel, " resolves to ", resolved, ", inside the staging destination"));
    }
    const std::string* allowed = nullptr;
    if (tree_.has_value() && InsideNormal(resolved, *tree_)) allowed = &*tree_;
    for (const std::string& root : roots_.allowed) {
      if (InsideNormal(resolved, root) && (allowed == nullptr || root.size() > allowed->size())) {
        allowed = &root;
      }
    }
    const std::string* forbidden = nullptr;
    for (const std::string& root : roots_.forbidden) {
      if (InsideNormal(resolved, root) && (forbidden == nullptr || root.size() > forbidden->size())) {
        forbidden = &root;
      }
    }
    if (forbidden != nullptr && (allowed == nullptr || forbidden->size() >= allowed->size())) {
      return absl::PermissionDeniedError(absl::StrCat("runfiles entry ", rel, " resolves to ",
                                                      resolved, ", inside the forbidden root ",
                                                      *forbidden));
    }
    if (allowed == nullptr) {
      std::vector<std::string> roots = roots_.allowed;
      if (tree_.has_value()) roots.push_back(*tree_);
      return absl::PermissionDeniedError(
          absl::StrCat("runfiles entry ", rel, " resolves to ", resolved,
                       ", outside every allowed root (", absl::StrJoin(roots, ", "), ")"));
    }
    if (policy_.refuse_answer_holders) {
      if (std::optional<std::pair<std::string, const char*>> holder =
              AnswerHolderBelow(resolved, *allowed)) {
        return absl::PermissionDeniedError(absl::StrCat(
            "runfiles entry ", rel, " resolves to ", resolved, ", inside ", holder->first,
            ", which looks like ", holder->second, " (it may hold a competition's answers)"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status Count(const std::string& rel) const {
    if (stats_.files + stats_.directories >= policy_.max_entries) {
      return absl::ResourceExhaustedError(absl::StrCat("more than ", policy_.max_entries,
                                                       " runfiles entries to stage, at ", rel));
    }
    return absl::OkStatus();
  }

  // Fills the open destination directory `out_fd` with what the source
  // directory `dir` (resolved, already judged; `st` its lstat) contains.
  absl::Status StageDirectory(const std::string& rel, const std::string& dir,
                              const struct stat& st, int out_fd) {
    FileDescriptor in_fd(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!in_fd.ok()) {
      return ErrnoError(errno, absl::StrCat("cannot open runfiles directory ", Shown(rel), " (",
                                            dir, ")"));
    }
    struct stat opened;
    if (fstat(in_fd.get(), &opened) != 0) return ErrnoError(errno, absl::StrCat("fstat ", dir));
    if (!SameInode(opened, st)) return Changed(rel, dir);
    ASSIGN_OR_RETURN(std::vector<std::string> names, SortedNames(in_fd.get(), dir));
    ancestors_.push_back(st);
    for (const std::string& name : names) {
      const std::string child_rel = rel.empty() ? name : absl::StrCat(rel, "/", name);
      RETURN_IF_ERROR(StageEntry(child_rel, dir, in_fd.get(), name, out_fd));
    }
    ancestors_.pop_back();
    return absl::OkStatus();
  }

  // Stages the regular file `file` (resolved, judged; `st` its lstat) as
  // `name` in `out_fd`.
  absl::Status StageRegularFile(const std::string& rel, const std::string& file,
                                const struct stat& st, int out_fd, const std::string& name) {
    const mode_t mode = (st.st_mode & S_IXUSR) != 0 ? 0555 : 0444;
    if (policy_.hard_links && (st.st_mode & 07777) == mode) {
      // Flags 0: a symlink swapped in at `file` would be linked itself, not
      // followed, and then fail the check below.
      if (linkat(AT_FDCWD, file.c_str(), out_fd, name.c_str(), 0) == 0) {
        struct stat linked;
        if (fstatat(out_fd, name.c_str(), &linked, AT_SYMLINK_NOFOLLOW) != 0) {
          return ErrnoError(errno, absl::StrCat("cannot stat the staged ", Shown(rel)));
        }
        if (!S_ISREG(linked.st_mode) || !SameInode(linked, st) ||
            (linked.st_mode & 07777) != mode) {
          unlinkat(out_fd, name.c_str(), 0);
          return Changed(rel, file);
        }
        ++stats_.files;
        ++stats_.hard_links;
        return absl::OkStatus();
      }
      if (errno == EEXIST) return AlreadyExists(rel);
      if (errno != EXDEV && errno != EPERM && errno != EMLINK && errno != EOPNOTSUPP &&
          errno != ENOSYS) {
        return ErrnoError(errno, absl::StrCat("cannot link runfiles entry ", Shown(rel), " (",
                                              file, ")"));
      }
    }
    // A file reached before (several symlinks, or directories reached
    // through several paths) was copied then: linked to that copy.
    const std::pair<dev_t, ino_t> inode(st.st_dev, st.st_ino);
    if (destination_fd_ >= 0) {
      if (const auto it = copies_.find(inode); it != copies_.end()) {
        if (linkat(destination_fd_, it->second.c_str(), out_fd, name.c_str(), 0) == 0) {
          ++stats_.files;
          ++stats_.copies_linked;
          return absl::OkStatus();
        }
        if (errno == EEXIST) return AlreadyExists(rel);
        // EMLINK and the like: another copy.
      }
    }
    if (st.st_size > policy_.max_copied_bytes - stats_.bytes_copied) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "staging the agent's files would copy more than ", policy_.max_copied_bytes,
          " bytes (", stats_.bytes_copied, " so far, and ", st.st_size, " for runfiles entry ",
          Shown(rel), "); files whose mode is exactly 0444 or 0555 are hard-linked instead"));
    }
    // O_NONBLOCK: should a FIFO be swapped in, opening it must not hang.
    FileDescriptor in(
        open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!in.ok()) {
      return ErrnoError(errno, absl::StrCat("cannot open runfiles entry ", Shown(rel), " (", file,
                                            ")"));
    }
    struct stat opened;
    if (fstat(in.get(), &opened) != 0) return ErrnoError(errno, absl::StrCat("fstat ", file));
    if (!S_ISREG(opened.st_mode) || !SameInode(opened, st)) return Changed(rel, file);
    FileDescriptor out(
        openat(out_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!out.ok()) {
      if (errno == EEXIST) return AlreadyExists(rel);
      return ErrnoError(errno, absl::StrCat("cannot create the copy of ", Shown(rel)));
    }
    RETURN_IF_ERROR(CopyBytes(in.get(), out.get(), stats_.bytes_copied, file));
    if (fchmod(out.get(), mode) != 0) {
      return ErrnoError(errno, absl::StrCat("cannot chmod the copy of ", Shown(rel)));
    }
    if (out.Close() != 0) {
      return ErrnoError(errno, absl::StrCat("cannot write the copy of ", Shown(rel)));
    }
    ++stats_.files;
    ++stats_.copies;
    if (destination_fd_ >= 0) copies_.emplace(inode, rel);
    return absl::OkStatus();
  }

  // Judges `file` (resolved; `st` its lstat) and stages it as `name`.
  absl::Status StageResolved(const std::string& rel, const std::string& resolved,
                             const struct stat& st, int out_fd, const std::string& name) {
    RETURN_IF_ERROR(Judge(rel, resolved));
    RETURN_IF_ERROR(Count(rel));
    if (S_ISREG(st.st_mode)) return StageRegularFile(rel, resolved, st, out_fd, name);
    if (!S_ISDIR(st.st_mode)) {
      return absl::FailedPreconditionError(
          absl::StrCat("runfiles entry ", rel, " resolves to ", resolved,
                       ", neither a regular file nor a directory (", TypeName(st.st_mode), ")"));
    }
    for (const struct stat& ancestor : ancestors_) {
      if (SameInode(ancestor, st)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "runfiles entry ", rel, " resolves to ", resolved,
            ", a directory that contains it: a directory cycle"));
      }
    }
    if (mkdirat(out_fd, name.c_str(), 0700) != 0) {
      if (errno == EEXIST) return AlreadyExists(rel);
      return ErrnoError(errno, absl::StrCat("cannot create the staged directory ", rel));
    }
    ++stats_.directories;
    FileDescriptor sub(
        openat(out_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!sub.ok()) {
      return ErrnoError(errno, absl::StrCat("cannot open the staged directory ", rel));
    }
    RETURN_IF_ERROR(StageDirectory(rel, resolved, st, sub.get()));
    if (fchmod(sub.get(), 0555) != 0) {
      return ErrnoError(errno, absl::StrCat("cannot chmod the staged directory ", rel));
    }
    return absl::OkStatus();
  }

 private:
  // Resolves the entry `name` of the source directory `dir` (open as
  // `dir_fd`) and stages it, unless it is a dangling symlink.
  absl::Status StageEntry(const std::string& rel, const std::string& dir, int dir_fd,
                          const std::string& name, int out_fd) {
    struct stat st;
    if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return ErrnoError(errno, absl::StrCat("cannot stat runfiles entry ", rel));
    }
    std::string resolved = Child(dir, name);
    if (S_ISLNK(st.st_mode)) {
      int error = 0;
      std::optional<std::string> target = RealPath(resolved, error);
      if (!target.has_value()) {
        if (error == ENOENT || error == ENOTDIR) {
          ++stats_.dangling_skipped;
          return absl::OkStatus();
        }
        return ErrnoError(error, absl::StrCat("cannot resolve runfiles entry ", rel, " (",
                                              resolved, ")"));
      }
      resolved = *std::move(target);
      // The resolved path has no symlinks left, unless one was just swapped in.
      if (lstat(resolved.c_str(), &st) != 0) {
        return ErrnoError(errno, absl::StrCat("cannot stat runfiles entry ", rel, " (", resolved,
                                              ")"));
      }
      if (S_ISLNK(st.st_mode)) return Changed(rel, resolved);
    }
    return StageResolved(rel, resolved, st, out_fd, name);
  }

  // The directory, from `path` itself up to (not including) the allowed
  // root `floor`, that looks like a holder of answers, and what it looks
  // like (AnswerHolderKind); nullopt when none does.
  std::optional<std::pair<std::string, const char*>> AnswerHolderBelow(const std::string& path,
                                                                      const std::string& floor) {
    for (std::string dir = path; dir.size() > floor.size() && InsideNormal(dir, floor);) {
      auto [it, inserted] = holders_.try_emplace(dir, nullptr);
      if (inserted) it->second = AnswerHolderKind(dir);
      if (it->second != nullptr) return std::make_pair(dir, it->second);
      const size_t slash = dir.rfind('/');
      if (slash == std::string::npos || slash == 0) break;
      dir.resize(slash);
    }
    return std::nullopt;
  }

  static std::string Shown(const std::string& rel) { return rel.empty() ? "." : rel; }

  static absl::Status Changed(const std::string& rel, const std::string& resolved) {
    return absl::AbortedError(absl::StrCat("runfiles entry ", Shown(rel), " (", resolved,
                                           ") changed while it was being staged"));
  }

  static absl::Status AlreadyExists(const std::string& rel) {
    return absl::AlreadyExistsError(
        absl::StrCat("the staged ", Shown(rel), " already exists"));
  }

  static const char* TypeName(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "an unknown file type";
  }

  const Roots& roots_;
  const StagingPolicy& policy_;
  const std::optional<std::string> tree_;
  const std::optional<std::string> destination_;
  StagingStats& stats_;
  std::vector<struct stat> ancestors_;  // directories on the current path
  // AnswerHolderKind of each directory looked at.
  std::unordered_map<std::string, const char*> holders_;
  // The first staged copy of each source file that had to be copied, by
  // its inode, so that further paths to it become hard links to that copy:
  // the path relative to the destination.
  std::map<std::pair<dev_t, ino_t>, std::string> copies_;
  int destination_fd_ = -1;

 public:
  // The destination's root, open, for linking to earlier copies.
  void set_destination_fd(int fd) { destination_fd_ = fd; }
};

}  // namespace

bool IsInside(const fs::path& path, const fs::path& root) {
  return InsideNormal(Normal(path), Normal(root));
}

absl::StatusOr<StagingStats> StageRunfiles(const fs::path& source, const fs::path& destination,
                                           const StagingPolicy& policy) {
  ASSIGN_OR_RETURN(Roots roots, ResolvePolicyRoots(policy));
  int error = 0;
  const std::optional<std::string> tree = RealPath(source.string(), error);
  if (!tree.has_value()) {
    return ErrnoError(error, absl::StrCat("cannot resolve the runfiles tree ", source.string()));
  }
  struct stat tree_st;
  if (lstat(tree->c_str(), &tree_st) != 0) {
    return ErrnoError(errno, absl::StrCat("cannot stat the runfiles tree ", *tree));
  }
  if (!S_ISDIR(tree_st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the runfiles tree ", source.string(), " is not a directory"));
  }
  ASSIGN_OR_RETURN(DestinationSlot slot, OpenDestinationSlot(destination));
  if (InsideNormal(slot.resolved, *tree)) {
    return absl::InvalidArgumentError(absl::StrCat("the staging destination ",
                                                   destination.string(),
                                                   " is inside the runfiles tree ", *tree));
  }
  if (policy.max_entries < 1) {
    return absl::ResourceExhaustedError(
        absl::StrCat("more than ", policy.max_entries, " runfiles entries to stage"));
  }
  if (mkdirat(slot.parent.get(), slot.name.c_str(), 0700) != 0) {
    if (errno == EEXIST) {
      return absl::AlreadyExistsError(
          absl::StrCat("the staging destination ", destination.string(), " already exists"));
    }
    return ErrnoError(errno, absl::StrCat("cannot create ", destination.string()));
  }
  StagingStats stats;
  stats.directories = 1;
  Stager stager(roots, policy, tree, slot.resolved, stats);
  absl::Status status = [&]() -> absl::Status {
    FileDescriptor out(openat(slot.parent.get(), slot.name.c_str(),
                              O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!out.ok()) return ErrnoError(errno, absl::StrCat("cannot open ", destination.string()));
    stager.set_destination_fd(out.get());
    RETURN_IF_ERROR(stager.StageDirectory("", *tree, tree_st, out.get()));
    if (fchmod(out.get(), 0555) != 0) {
      return ErrnoError(errno, absl::StrCat("cannot chmod ", destination.string()));
    }
    return absl::OkStatus();
  }();
  if (!status.ok()) {
    // Best effort: the error at hand says more than one from cleaning up.
    RemoveTreeAt(slot.parent.get(), slot.name, destination.string()).IgnoreError();
    return status;
  }
  return stats;
}

absl::StatusOr<StagingStats> StageFile(const fs::path& source, const fs::path& destination,
                                       const StagingPolicy& policy) {
  ASSIGN_OR_RETURN(Roots roots, ResolvePolicyRoots(policy));
  const std::string shown = source.string();
  int error = 0;
  const std::optional<std::string> resolved = RealPath(shown, error);
  if (!resolved.has_value()) {
    if (error == ENOENT || error == ENOTDIR) {
      return absl::NotFoundError(absl::StrCat("cannot stage ", shown, ": it does not resolve"));
    }
    return ErrnoError(error, absl::StrCat("cannot resolve ", shown));
  }
  struct stat st;
  if (lstat(resolved->c_str(), &st) != 0) {
    return ErrnoError(errno, absl::StrCat("cannot stat ", *resolved));
  }
  ASSIGN_OR_RETURN(DestinationSlot slot, OpenDestinationSlot(destination));
  struct stat existing;
  if (fstatat(slot.parent.get(), slot.name.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0) {
    return absl::AlreadyExistsError(
        absl::StrCat("the staging destination ", destination.string(), " already exists"));
  }
  StagingStats stats;
  Stager stager(roots, policy, std::nullopt, std::nullopt, stats);
  RETURN_IF_ERROR(stager.Judge(shown, *resolved));
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot stage ", shown, ": it resolves to ", *resolved,
                     ", which is not a regular file"));
  }
  RETURN_IF_ERROR(stager.Count(shown));
  RETURN_IF_ERROR(stager.StageRegularFile(shown, *resolved, st, slot.parent.get(), slot.name));
  return stats;
}

namespace {

// The mount a path is on (statx's mount id, Linux >= 5.8), or nullopt.
std::optional<uint64_t> MountIdOf(const std::string& path) {
  struct statx st;
  if (statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &st) != 0 ||
      (st.stx_mask & STATX_MNT_ID) == 0) {
    return std::nullopt;
  }
  return st.stx_mnt_id;
}

}  // namespace

absl::Status CheckTreeToBind(const fs::path& dir, const fs::path& floor, int64_t max_entries) {
  struct stat root;
  if (lstat(dir.c_str(), &root) != 0 || !S_ISDIR(root.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(dir.string(), " is not a directory"));
  }
  if (!IsInside(dir, floor)) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir.string(), " is not inside ", floor.string()));
  }
  const std::optional<uint64_t> root_mount = MountIdOf(dir.string());
  if (!root_mount.has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot tell which mount ", dir.string(), " is on (statx, Linux >= 5.8)"));
  }
  // The directories above it, up to the allowed root: the bind shows no
  // more, but an environment inside a data dir or an output base is refused
  // as staging refuses a runfile there.
  for (fs::path parent = dir.parent_path(); IsInside(parent, floor) && parent != floor;
       parent = parent.parent_path()) {
    if (const char* kind = AnswerHolderKind(parent.string()); kind != nullptr) {
      return absl::PermissionDeniedError(absl::StrCat(
          dir.string(), " lies inside ", parent.string(), ", which looks like ", kind));
    }
  }
  std::vector<std::string> pending = {dir.string()};
  int64_t entries = 0;
  while (!pending.empty()) {
    const std::string current = std::move(pending.back());
    pending.pop_back();
    if (const char* kind = AnswerHolderKind(current); kind != nullptr) {
      return absl::PermissionDeniedError(absl::StrCat(current, " looks like ", kind,
                                                      ", which an agent must not see"));
    }
    DIR* listing = opendir(current.c_str());
    if (listing == nullptr) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot list ", current, ": ", std::strerror(errno)));
    }
    absl::Status problem;
    while (const struct dirent* entry = readdir(listing)) {
      const std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      if (++entries > max_entries) {
        problem = absl::ResourceExhaustedError(
            absl::StrCat(dir.string(), " holds more than ", max_entries, " entries"));
        break;
      }
      if (entry->d_type == DT_REG || entry->d_type == DT_LNK) continue;
      const std::string child = Child(current, name);
      struct stat st;
      if (lstat(child.c_str(), &st) != 0) continue;  // gone meanwhile: nothing to expose
      if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) continue;
      if (!S_ISDIR(st.st_mode)) {
        problem = absl::FailedPreconditionError(absl::StrCat(
            child, " is a socket, FIFO or device node, which the bind would expose"));
        break;
      }
      if (st.st_dev != root.st_dev || MountIdOf(child) != root_mount) {
        problem = absl::FailedPreconditionError(absl::StrCat(
            child, " is a mount point, which the bind would expose"));
        break;
      }
      pending.push_back(child);
    }
    closedir(listing);
    if (!problem.ok()) return problem;
  }
  return absl::OkStatus();
}

absl::Status RemoveStaged(const fs::path& destination) {
  absl::StatusOr<DestinationSlot> slot = OpenDestinationSlot(destination);
  if (!slot.ok()) {
    return absl::IsNotFound(slot.status()) ? absl::OkStatus() : slot.status();
  }
  return RemoveTreeAt(slot->parent.get(), slot->name, destination.string());
}

}  // namespace mlebench
