#ifndef MLEBENCH_BASE_FILES_H_
#define MLEBENCH_BASE_FILES_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// Writes `bytes` to `path`, replacing it; the directory must exist.
absl::Status WriteStringToFile(const std::filesystem::path& path, std::string_view bytes);

// The whole content of the regular file `path`.
absl::StatusOr<std::string> ReadFileToString(const std::filesystem::path& path);

// Whether `path` is absent or an empty directory (itself, not a symlink to
// one); an error when it cannot be looked at.
absl::StatusOr<bool> IsAbsentOrEmptyDirectory(const std::filesystem::path& path);

}  // namespace mlebench

#endif  // MLEBENCH_BASE_FILES_H_
