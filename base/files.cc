#include "base/files.h"

#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace mlebench {

absl::Status WriteStringToFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot create '", path.string(), "'"));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write '", path.string(), "'"));
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFileToString(const std::filesystem::path& path,
                                             std::uintmax_t max_bytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return absl::NotFoundError(absl::StrCat("'", path.string(), "' is not a regular file"));
  }
  if (max_bytes != std::numeric_limits<std::uintmax_t>::max()) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes) {
      return absl::InvalidArgumentError(absl::StrCat("'", path.string(), "' has ", size,
                                                     " bytes, more than the limit of ", max_bytes));
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::PermissionDeniedError(absl::StrCat("cannot open '", path.string(), "'"));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return absl::InternalError(absl::StrCat("cannot read '", path.string(), "'"));
  return std::move(content).str();
}

absl::StatusOr<bool> IsAbsentOrEmptyDirectory(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::symlink_status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) return true;
  if (ec) return absl::InternalError(absl::StrCat("cannot stat ", path.string(), ": ", ec.message()));
  if (status.type() != std::filesystem::file_type::directory) return false;
  const bool empty = std::filesystem::is_empty(path, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot list ", path.string(), ": ", ec.message()));
  return empty;
}

}  // namespace mlebench
