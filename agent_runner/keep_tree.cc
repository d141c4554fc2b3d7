#include "agent_runner/keep_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/display_text.h"
#include "agent_runner/internal/file_ops.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using runner_internal::ErrnoError;
using runner_internal::FileDescriptor;
using runner_internal::OpenBeneath;
using runner_internal::Symlinks;

bool SafeName(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 255) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '+' || c == '-';
  });
}

class Keeper {
 public:
  Keeper(const KeepLimits& limits, KeepStats& stats) : limits_(limits), stats_(stats) {}

  void Skip(const std::string& shown, absl::string_view why) {
    ++stats_.skipped;
    if (stats_.notes.size() < 1000) {
      stats_.notes.push_back(absl::StrCat(EscapeForConsole(shown, 300), ": ", why));
    }
  }

  // Copies the directory open at `dir_fd` (shown as `shown`) into `out`.
  absl::Status Directory(int dir_fd, const std::string& shown, const fs::path& out, int depth) {
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", out.string(), ": ", ec.message()));
    const int listing_fd = dup(dir_fd);
    if (listing_fd < 0) return absl::InternalError(absl::StrCat("dup: ", std::strerror(errno)));
    DIR* listing = fdopendir(listing_fd);
    if (listing == nullptr) {
      close(listing_fd);
      Skip(shown, "cannot be listed");
      return absl::OkStatus();
    }
    std::vector<std::string> names;
    while (const struct dirent* entry = readdir(listing)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
      if (names.size() > static_cast<size_t>(limits_.max_files) * 2) break;
    }
    closedir(listing);
    std::sort(names.begin(), names.end());  // deterministic choice under the caps
    for (const std::string& name : names) {
      const std::string path = shown + "/" + name;
      if (!SafeName(name)) {
        Skip(path, "a name outside [A-Za-z0-9._+-]");
        continue;
      }
      struct stat st;
      if (fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        Skip(path, "gone");
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (depth >= limits_.max_depth) {
          Skip(path, absl::StrCat("deeper than ", limits_.max_depth, " directories"));
          continue;
        }
        FileDescriptor sub(OpenBeneath(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY, Symlinks::kRefuse));
        if (sub.get() < 0) {
          Skip(path, "cannot be opened");
          continue;
        }
        RETURN_IF_ERROR(Directory(sub.get(), path, out / name, depth + 1));
      } else if (S_ISREG(st.st_mode)) {
        RETURN_IF_ERROR(File(dir_fd, name, path, out / name));
      } else {
        Skip(path, S_ISLNK(st.st_mode) ? "a symlink (not followed)"
                                       : "not a regular file (a FIFO, socket or device)");
      }
    }
    return absl::OkStatus();
  }

 private:
  absl::Status File(int dir_fd, const std::string& name, const std::string& shown,
                    const fs::path& out) {
    if (stats_.files >= limits_.max_files) {
      Skip(shown, absl::StrCat("over the cap of ", limits_.max_files, " files"));
      return absl::OkStatus();
    }
    FileDescriptor in(OpenBeneath(dir_fd, name.c_str(), O_RDONLY | O_NONBLOCK, Symlinks::kRefuse));
    struct stat st;
    if (in.get() < 0 || fstat(in.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
      Skip(shown, "cannot be opened as a regular file");
      return absl::OkStatus();
    }
    if (st.st_size > limits_.max_bytes - stats_.bytes) {
      Skip(shown, absl::StrCat(st.st_size, " bytes: over the cap of ", limits_.max_bytes,
                               " bytes for everything kept"));
      return absl::OkStatus();
    }
    FileDescriptor copy(open(out.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (copy.get() < 0) return ErrnoError("cannot write", out, errno);
    int64_t copied = 0;
    char buffer[1 << 16];
    // At most the size it had when it was looked at: a file that grows
    // meanwhile (impossible once the agent is gone) cannot pass the cap.
    while (copied < st.st_size) {
      const ssize_t n = read(in.get(), buffer,
                             static_cast<size_t>(std::min<int64_t>(sizeof(buffer), st.st_size - copied)));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      for (ssize_t done = 0; done < n;) {
        const ssize_t w = write(copy.get(), buffer + done, static_cast<size_t>(n - done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return ErrnoError("cannot write", out, errno);
        done += w;
      }
      copied += n;
    }
    ++stats_.files;
    stats_.bytes += copied;
    return absl::OkStatus();
  }

  const KeepLimits& limits_;
  KeepStats& stats_;
};

}  // namespace

absl::Status KeepTree(const fs::path& workspace, const std::string& relative, const fs::path& out,
                      const KeepLimits& limits, KeepStats& stats) {
  FileDescriptor root(open(workspace.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) return ErrnoError("cannot open", workspace, errno);
  Keeper keeper(limits, stats);
  std::error_code ec;
  fs::create_directories(out / relative, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", (out / relative).string()));
  FileDescriptor dir(
      OpenBeneath(root.get(), relative.c_str(), O_RDONLY | O_DIRECTORY, Symlinks::kRefuse));
  if (dir.get() < 0) {
    if (errno != ENOENT) keeper.Skip(relative, "is not a directory beneath the workspace");
    return absl::OkStatus();
  }
  return keeper.Directory(dir.get(), relative, out / relative, 0);
}

}  // namespace mlebench
