#include "agent_runner/workspace_quota.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "agent_runner/processes.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Adds what the directory `dir_fd` holds to `usage`; closes `dir_fd`. The
// recursion is at most kMaxWorkspaceDepth deep.
void AddUsage(int dir_fd, dev_t device, int depth, WorkspaceUsage& usage) {
  DIR* dir = fdopendir(dir_fd);
  if (dir == nullptr) {
    close(dir_fd);
    usage.unmeasurable = true;
    return;
  }
  while (const struct dirent* entry = readdir(dir)) {
    const absl::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone
    usage.bytes += static_cast<int64_t>(st.st_blocks) * 512;
    ++usage.inodes;
    if (!S_ISDIR(st.st_mode) || st.st_dev != device) continue;
    if (depth + 1 >= kMaxWorkspaceDepth) {
      usage.unmeasurable = true;
      continue;
    }
    const int child =
        openat(dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child >= 0) {
      AddUsage(child, device, depth + 1, usage);
    } else if (errno != ENOENT && errno != ENOTDIR && errno != ELOOP) {
      usage.unmeasurable = true;  // ENOENT, ENOTDIR, ELOOP: removed or swapped meanwhile
    }
  }
  closedir(dir);
}

// Whether task `tid` (a process or one of its threads: /proc/<tid> names
// either) is a zombie or gone, waiting up to about 50 ms for it to become
// one. An exiting task gives up its memory before its files and before it
// becomes a zombie, and from then on its /proc entries belong to root: an
// ordinary user's runner cannot list its descriptors for that moment. A
// task still alive after the wait really hides its files.
bool ZombieOrGoneSoon(pid_t tid) {
  for (int tries = 0; tries < 50; ++tries) {
    if (IsZombieOrGone(tid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return IsZombieOrGone(tid);
}

}  // namespace

void AddUnlinkedFiles(const std::vector<pid_t>& processes, dev_t device, WorkspaceUsage& usage) {
  std::set<ino_t> seen;
  const auto count = [&](const struct stat& st) {
    if (!S_ISREG(st.st_mode) || st.st_nlink != 0 || st.st_dev != device) return;
    if (!seen.insert(st.st_ino).second) return;
    usage.bytes += static_cast<int64_t>(st.st_blocks) * 512;
    ++usage.inodes;
  };
  for (const pid_t pid : processes) {
    // Every thread's descriptor table: a thread may have one of its own
    // (clone without CLONE_FILES, unshare(CLONE_FILES)), and the process's
    // first thread may have exited (a zombie, whose table is gone) while the
    // others go on holding files. The memory map is one for all threads:
    // read once, from the first thread whose map can be read.
    bool maps_read = false;
    for (const pid_t tid : ThreadsOf(pid)) {
      const std::string proc = absl::StrCat("/proc/", tid);
      DIR* fds = opendir((proc + "/fd").c_str());
      if (fds == nullptr) {
        // Gone, a zombie (whose files are closed, and whose /proc/<tid>/fd
        // its own user cannot list) or exiting: nothing held.
        if (errno != ENOENT && errno != ESRCH && !ZombieOrGoneSoon(tid)) usage.unmeasurable = true;
        continue;
      }
      while (const struct dirent* entry = readdir(fds)) {
        if (entry->d_name[0] == '.') continue;
        struct stat st;
        // Follows the descriptor's magic link to the open file itself.
        if (fstatat(dirfd(fds), entry->d_name, &st, 0) == 0) count(st);
      }
      closedir(fds);
      if (maps_read) continue;
      // Mapped files whose descriptor was closed: "start-end perms offset
      // major:minor inode path (deleted)".
      std::ifstream maps(proc + "/maps");
      if (!maps.is_open()) continue;
      maps_read = true;
      for (std::string line; std::getline(maps, line);) {
        if (!absl::EndsWith(line, " (deleted)")) continue;
        unsigned long start = 0, end = 0, inode = 0;
        unsigned major_number = 0, minor_number = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx %*s %*s %x:%x %lu", &start, &end, &major_number,
                        &minor_number, &inode) != 5 ||
            inode == 0 || major_number != major(device) || minor_number != minor(device)) {
          continue;
        }
        struct stat st;
        if (stat(absl::StrFormat("%s/map_files/%lx-%lx", proc, start, end).c_str(), &st) == 0) {
          count(st);
        } else if (seen.insert(static_cast<ino_t>(inode)).second) {
          usage.bytes += static_cast<int64_t>(end - start);
          ++usage.inodes;
        }
      }
    }
  }
}

WorkspaceUsage MeasureWorkspace(const fs::path& workspace) {
  WorkspaceUsage usage;
  const int root = open(workspace.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  if (root < 0 || fstat(root, &st) != 0) {
    if (root >= 0) close(root);
    usage.unmeasurable = true;
    return usage;
  }
  AddUsage(root, st.st_dev, 0, usage);
  return usage;
}

absl::StatusOr<WorkspaceQuota> WorkspaceQuota::Start(const fs::path& workspace,
                                                     int64_t quota_bytes, int64_t quota_inodes) {
  WorkspaceQuota quota;
  quota.workspace_ = workspace;
  if (quota_bytes <= 0 || quota_inodes <= 0) {
    struct statvfs info;
    if (statvfs(workspace.c_str(), &info) != 0) {
      return absl::InternalError(absl::StrCat("cannot read the free space of ", workspace.string(),
                                              ": ", std::strerror(errno)));
    }
    if (quota_bytes <= 0) {
      const int64_t free_bytes =
          static_cast<int64_t>(info.f_bavail) * static_cast<int64_t>(info.f_frsize);
      if (free_bytes < 2) {
        return absl::ResourceExhaustedError(
            absl::StrCat("no free space for the workspace at ", workspace.string()));
      }
      quota_bytes = free_bytes / 2;
    }
    if (quota_inodes <= 0) {
      if (info.f_files == 0) {
        quota_inodes = 10'000'000;  // inodes made on demand (btrfs, ...)
      } else if (info.f_favail < 2) {
        return absl::ResourceExhaustedError(
            absl::StrCat("no free inodes for the workspace at ", workspace.string()));
      } else {
        quota_inodes = static_cast<int64_t>(info.f_favail / 2);
      }
    }
  }
  quota.quota_bytes_ = quota_bytes;
  quota.quota_inodes_ = quota_inodes;
  struct stat st;
  if (stat(workspace.c_str(), &st) != 0) {
    return absl::InternalError(absl::StrCat("cannot stat ", workspace.string(), ": ",
                                            std::strerror(errno)));
  }
  quota.device_ = st.st_dev;
  quota.baseline_ = MeasureWorkspace(workspace);
  if (quota.baseline_.unmeasurable) {
    return absl::InternalError(
        absl::StrCat("cannot measure the new workspace ", workspace.string()));
  }
  quota.next_walk_ = std::chrono::steady_clock::now();
  return quota;
}

bool WorkspaceQuota::Over(const std::vector<pid_t>& processes) {
  const auto start = std::chrono::steady_clock::now();
  if (over_ || start < next_walk_) return over_;
  WorkspaceUsage usage = MeasureWorkspace(workspace_);
  AddUnlinkedFiles(processes, device_, usage);
  const auto end = std::chrono::steady_clock::now();
  next_walk_ = end + 4 * (end - start);
  const int64_t bytes = usage.bytes - baseline_.bytes;
  const int64_t inodes = usage.inodes - baseline_.inodes;
  if (usage.unmeasurable) {
    why_ = absl::StrCat("its files could not all be measured (a directory made unreadable, "
                        "nested deeper than ", kMaxWorkspaceDepth,
                        ", or a process whose open files cannot be read)");
  } else if (bytes > quota_bytes_) {
    why_ = absl::StrCat("its files took ", bytes, " bytes, more than the workspace quota of ",
                        quota_bytes_, " bytes");
  } else if (inodes > quota_inodes_) {
    why_ = absl::StrCat("it made ", inodes, " files and directories, more than the workspace "
                        "quota of ", quota_inodes_, " inodes");
  } else {
    return false;
  }
  over_ = true;
  return true;
}

}  // namespace mlebench
