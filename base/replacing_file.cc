#include "base/replacing_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace mlebench {

absl::StatusOr<ReplacingFile> ReplacingFile::Create(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  std::string temp_path;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp_path = absl::StrCat(path, ".tmp.", ::getpid(), ".", counter.fetch_add(1));
    fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create a file beside '", path, "': ", std::strerror(errno)));
  }
  return ReplacingFile(path, std::move(temp_path), fd);
}

ReplacingFile::ReplacingFile(ReplacingFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      fd_(std::exchange(other.fd_, -1)) {}

ReplacingFile::~ReplacingFile() {
  if (fd_ >= 0) Abandon(absl::OkStatus()).IgnoreError();
}

absl::Status ReplacingFile::Abandon(absl::Status error) {
  ::close(fd_);
  fd_ = -1;
  ::unlink(temp_path_.c_str());
  return error;
}

absl::Status ReplacingFile::CheckOpen() const {
  if (fd_ >= 0) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat("'", path_, "' is no longer being written"));
}

absl::Status ReplacingFile::Append(std::string_view bytes) {
  if (absl::Status open = CheckOpen(); !open.ok()) return open;
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t w = ::write(fd_, bytes.data() + written, bytes.size() - written);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Abandon(absl::InvalidArgumentError(
          absl::StrCat("cannot write '", temp_path_, "': ", std::strerror(errno))));
    }
    written += static_cast<size_t>(w);
  }
  return absl::OkStatus();
}

absl::Status ReplacingFile::Commit() {
  if (absl::Status open = CheckOpen(); !open.ok()) return open;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp_path_.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", temp_path_, "': ", std::strerror(err)));
  }
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp_path_.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat("cannot replace '", path_, "': ", std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
