// File operations the runner, the sandbox set-up and the staging share:
// errors that name the path, descriptors that close themselves, opening
// beneath a directory that an agent controls, and read-only copies of files.
// For agent_runner's own libraries; not for other callers.
#ifndef MLEBENCH_AGENT_RUNNER_INTERNAL_FILE_OPS_H_
#define MLEBENCH_AGENT_RUNNER_INTERNAL_FILE_OPS_H_

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mlebench::runner_internal {

// An error naming what failed, the path and errno's text.
absl::Status ErrnoError(absl::string_view what, const std::filesystem::path& path, int error);

// An error naming what failed, the path and the error code's text.
absl::Status FsError(absl::string_view what, const std::filesystem::path& path,
                     const std::error_code& ec);

// Whether OpenBeneath follows symlinks that stay beneath the root.
enum class Symlinks { kFollowBeneath, kRefuse };

// Opens `relative` beneath `root_fd` with openat2: never out of the root
// (RESOLVE_BENEATH: an absolute link or `..` out fails with EXDEV), through
// /proc magic links or into another mount; with kRefuse, through no symlink
// at all (RESOLVE_NO_SYMLINKS, and O_NOFOLLOW for the last component).
// O_CLOEXEC always, O_NOCTTY unless O_PATH. Returns the descriptor, or -1
// with errno (ENOSYS: a kernel without openat2).
int OpenBeneath(int root_fd, const char* relative, uint64_t flags,
                Symlinks symlinks = Symlinks::kFollowBeneath);

// Owns a descriptor (-1: none) and closes it on destruction.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  ~FileDescriptor() { Close(); }
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) {
      Close();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  // Closes it now. close(2)'s result (0 when there was none): a failed close
  // of a written file is a failed write.
  int Close() {
    const int fd = std::exchange(fd_, -1);
    return fd >= 0 ? close(fd) : 0;
  }

 private:
  int fd_;
};

// Modes of the read-only copies the runner makes for the agent.
inline constexpr std::filesystem::perms kReadOnlyFile = std::filesystem::perms::owner_read |
                                                        std::filesystem::perms::group_read |
                                                        std::filesystem::perms::others_read;
inline constexpr std::filesystem::perms kReadOnlyExecutable =
    kReadOnlyFile | std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
    std::filesystem::perms::others_exec;
inline constexpr std::filesystem::perms kReadOnlyDir = kReadOnlyExecutable;

// Copies the file `from` (reading through symlinks, as Bazel inputs often
// are) to the new file `to` and gives the copy `mode`.
absl::Status CopyRegularFile(const std::filesystem::path& from, const std::filesystem::path& to,
                             std::filesystem::perms mode);

}  // namespace mlebench::runner_internal

#endif  // MLEBENCH_AGENT_RUNNER_INTERNAL_FILE_OPS_H_
