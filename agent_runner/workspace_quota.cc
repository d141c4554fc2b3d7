#include "agent_runner/workspace_quota.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

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

}  // namespace

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
  quota.baseline_ = MeasureWorkspace(workspace);
  if (quota.baseline_.unmeasurable) {
    return absl::InternalError(
        absl::StrCat("cannot measure the new workspace ", workspace.string()));
  }
  quota.next_walk_ = std::chrono::steady_clock::now();
  return quota;
}

bool WorkspaceQuota::Over() {
  const auto start = std::chrono::steady_clock::now();
  if (over_ || start < next_walk_) return over_;
  const WorkspaceUsage usage = MeasureWorkspace(workspace_);
  const auto end = std::chrono::steady_clock::now();
  next_walk_ = end + 4 * (end - start);
  const int64_t bytes = usage.bytes - baseline_.bytes;
  const int64_t inodes = usage.inodes - baseline_.inodes;
  if (usage.unmeasurable) {
    why_ = absl::StrCat("its files could not all be measured (a directory made unreadable, or "
                        "nested deeper than ", kMaxWorkspaceDepth, ")");
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
