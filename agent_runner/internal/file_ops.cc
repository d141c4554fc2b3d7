#include "agent_runner/internal/file_ops.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace mlebench::runner_internal {

namespace fs = std::filesystem;

absl::Status ErrnoError(absl::string_view what, const fs::path& path, int error) {
  return absl::InternalError(absl::StrCat(what, " ", path.string(), ": ", std::strerror(error)));
}

absl::Status FsError(absl::string_view what, const fs::path& path, const std::error_code& ec) {
  return absl::InternalError(absl::StrCat(what, " ", path.string(), ": ", ec.message()));
}

int OpenBeneath(int root_fd, const char* relative, uint64_t flags, Symlinks symlinks) {
  struct open_how how;
  std::memset(&how, 0, sizeof(how));
  // openat2 refuses flags that O_PATH does not take, O_NOCTTY among them.
  how.flags = flags | O_CLOEXEC | ((flags & O_PATH) != 0 ? 0 : O_NOCTTY);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  if (symlinks == Symlinks::kRefuse) {
    how.flags |= O_NOFOLLOW;
    how.resolve |= RESOLVE_NO_SYMLINKS;
  }
  return static_cast<int>(syscall(SYS_openat2, root_fd, relative, &how, sizeof(how)));
}

absl::Status CopyRegularFile(const fs::path& from, const fs::path& to, fs::perms mode) {
  std::error_code ec;
  fs::copy_file(from, to, ec);
  if (ec) return FsError(absl::StrCat("cannot copy ", from.string(), " to"), to, ec);
  fs::permissions(to, mode, ec);
  if (ec) return FsError("cannot set permissions of", to, ec);
  return absl::OkStatus();
}

}  // namespace mlebench::runner_internal
