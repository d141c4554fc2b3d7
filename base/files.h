#ifndef MLEBENCH_BASE_FILES_H_
#define MLEBENCH_BASE_FILES_H_

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// Writes `bytes` to `path`, replacing it; the directory must exist.
// PermissionDeniedError when the file cannot be created, InternalError when
// the bytes cannot be written; both name the path.
absl::Status WriteStringToFile(const std::filesystem::path& path, std::string_view bytes);

// The whole content of the regular file `path`: NotFoundError when it is not
// one (absent, a directory, ...), InvalidArgumentError when it has more than
// `max_bytes` bytes (checked before anything is read: a bound on memory for
// files that come from outside), PermissionDeniedError or InternalError when
// it cannot be opened or read; each names the path.
absl::StatusOr<std::string> ReadFileToString(
    const std::filesystem::path& path,
    std::uintmax_t max_bytes = std::numeric_limits<std::uintmax_t>::max());

// Whether `path` is absent or an empty directory (itself, not a symlink to
// one); an error when it cannot be looked at.
absl::StatusOr<bool> IsAbsentOrEmptyDirectory(const std::filesystem::path& path);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_FILES_H_
