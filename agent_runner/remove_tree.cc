#include "agent_runner/remove_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Directories open at once, at most: the deepest ones.
constexpr size_t kMaxOpenDirectories = 32;
// Times a directory is listed again when it is not empty after its listing
// (entries may be missed when others are unlinked during a listing).
constexpr int kMaxRelists = 8;

absl::Status Error(int error, absl::string_view what, absl::string_view shown,
                   absl::string_view name) {
  return absl::ErrnoToStatus(
      error, absl::StrCat("cannot remove ", shown, ": ", what, " '", name, "'"));
}

bool SameInode(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// One directory on the way down.
struct Level {
  std::string name;  // in the level above (the top level: as given)
  struct stat st;    // what it was when it was entered
  int fd = -1;       // -1 while given up (see kMaxOpenDirectories)
  std::vector<std::string> subdirectories;  // still to remove
  int relists = 0;
};

// Opens the directory `name` in `parent_fd`, which lstat said is `st`,
// making it readable, searchable and writable for its owner where needed.
absl::StatusOr<int> OpenDirectory(int parent_fd, const std::string& name, const struct stat& st,
                                  absl::string_view shown) {
  constexpr int kFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = openat(parent_fd, name.c_str(), kFlags);
  if (fd < 0 && errno == EACCES) {
    // Unreadable to its (non-root) owner: change its mode through a path
    // descriptor, which needs no permission on the directory itself.
    const int path_fd = openat(parent_fd, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (path_fd >= 0) {
      const std::string proc = absl::StrCat("/proc/self/fd/", path_fd);
      struct stat opened;
      if (fstat(path_fd, &opened) == 0 && SameInode(opened, st)) chmod(proc.c_str(), 0700);
      close(path_fd);
    }
    fd = openat(parent_fd, name.c_str(), kFlags);
  }
  if (fd < 0) return Error(errno, "cannot open the directory", shown, name);
  struct stat opened;
  if (fstat(fd, &opened) != 0 || !SameInode(opened, st)) {
    close(fd);
    return absl::AbortedError(
        absl::StrCat("cannot remove ", shown, ": '", name, "' changed while it was removed"));
  }
  if ((opened.st_mode & 0700) != 0700 && fchmod(fd, 0700) != 0) {
    const int error = errno;
    close(fd);
    return Error(error, "cannot make writable the directory", shown, name);
  }
  return fd;
}

// Lists the directory `level.fd` from its start: unlinks every entry that is
// not a directory and keeps the names of those that are.
absl::Status Empty(Level& level, absl::string_view shown) {
  const int list_fd = dup(level.fd);
  if (list_fd < 0) return Error(errno, "cannot list", shown, level.name);
  lseek(list_fd, 0, SEEK_SET);
  DIR* dir = fdopendir(list_fd);
  if (dir == nullptr) {
    const int error = errno;
    close(list_fd);
    return Error(error, "cannot list", shown, level.name);
  }
  absl::Status status;
  errno = 0;
  while (const dirent* entry = readdir(dir)) {
    const char* name = entry->d_name;
    if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
    bool directory = entry->d_type == DT_DIR;
    if (entry->d_type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(level.fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) continue;
        status = Error(errno, "cannot stat", shown, name);
        break;
      }
      directory = S_ISDIR(st.st_mode);
    }
    if (directory) {
      level.subdirectories.emplace_back(name);
    } else if (unlinkat(level.fd, name, 0) != 0 && errno != ENOENT) {
      status = Error(errno, "cannot unlink", shown, name);
      break;
    }
    errno = 0;
  }
  if (status.ok() && errno != 0) status = Error(errno, "cannot list", shown, level.name);
  closedir(dir);
  return status;
}

}  // namespace

absl::Status RemoveTreeAt(int parent_fd, const std::string& name, absl::string_view shown) {
  struct stat top;
  if (fstatat(parent_fd, name.c_str(), &top, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return Error(errno, "cannot stat", shown, name);
  }
  if (!S_ISDIR(top.st_mode)) {
    if (unlinkat(parent_fd, name.c_str(), 0) != 0 && errno != ENOENT) {
      return Error(errno, "cannot unlink", shown, name);
    }
    return absl::OkStatus();
  }
  // levels[lowest_open..] hold open descriptors, the levels below do not.
  std::vector<Level> levels;
  size_t lowest_open = 0;
  const auto cleanup = [&] {
    for (Level& level : levels) {
      if (level.fd >= 0) close(level.fd);
    }
  };
  const auto enter = [&](int fd_above, const std::string& entry,
                         const struct stat& st) -> absl::Status {
    absl::StatusOr<int> fd = OpenDirectory(fd_above, entry, st, shown);
    if (!fd.ok()) return fd.status();
    levels.push_back(Level{entry, st, *fd, {}, 0});
    if (levels.size() - lowest_open > kMaxOpenDirectories) {
      close(levels[lowest_open].fd);
      levels[lowest_open].fd = -1;
      ++lowest_open;
    }
    return Empty(levels.back(), shown);
  };
  if (absl::Status s = enter(parent_fd, name, top); !s.ok()) {
    cleanup();
    return s;
  }
  absl::Status status;
  while (!levels.empty() && status.ok()) {
    Level& level = levels.back();
    if (!level.subdirectories.empty()) {
      const std::string entry = std::move(level.subdirectories.back());
      level.subdirectories.pop_back();
      struct stat st;
      if (fstatat(level.fd, entry.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT) status = Error(errno, "cannot stat", shown, entry);
        continue;
      }
      if (!S_ISDIR(st.st_mode)) {  // replaced since it was listed
        if (unlinkat(level.fd, entry.c_str(), 0) != 0 && errno != ENOENT) {
          status = Error(errno, "cannot unlink", shown, entry);
        }
        continue;
      }
      if (st.st_dev != top.st_dev) {
        status = absl::FailedPreconditionError(absl::StrCat(
            "cannot remove ", shown, ": '", entry, "' is a mount point (another file system)"));
        continue;
      }
      status = enter(level.fd, entry, st);
      continue;
    }
    // Every entry is gone: remove the directory itself from the one above,
    // reopened through ".." if it was given up.
    int above = parent_fd;
    if (levels.size() > 1) {
      Level& up = levels[levels.size() - 2];
      if (up.fd < 0) {
        const int fd = openat(level.fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || !SameInode(st, up.st)) {
          if (fd >= 0) close(fd);
          status = absl::AbortedError(absl::StrCat("cannot remove ", shown, ": the directory above '",
                                                   level.name, "' changed while it was removed"));
          continue;
        }
        up.fd = fd;
        --lowest_open;
      }
      above = up.fd;
    }
    if (unlinkat(above, level.name.c_str(), AT_REMOVEDIR) != 0) {
      if (errno == ENOTEMPTY && level.relists < kMaxRelists) {
        ++level.relists;
        status = Empty(level, shown);
        continue;
      }
      status = Error(errno, "cannot remove the directory", shown, level.name);
      continue;
    }
    close(level.fd);
    levels.pop_back();
  }
  cleanup();
  return status;
}

absl::Status RemoveTree(const fs::path& path) {
  const fs::path normal = path.lexically_normal();
  std::string name = normal.filename().string();
  fs::path parent = normal.parent_path();
  if (name.empty()) {  // a trailing slash
    name = parent.filename().string();
    parent = parent.parent_path();
  }
  if (name.empty() || name == "." || name == "..") {
    return absl::InvalidArgumentError(absl::StrCat("not a path to remove: ", path.string()));
  }
  if (parent.empty()) parent = ".";
  const int parent_fd = open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (parent_fd < 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", parent.string()));
  }
  absl::Status status = RemoveTreeAt(parent_fd, name, path.string());
  close(parent_fd);
  return status;
}

}  // namespace mlebench
