#include "formats/internal/archive_files.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <optional>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace mlebench::archive_internal {

namespace fs = std::filesystem;

absl::Status CheckEntryName(absl::string_view format, absl::string_view name,
                            absl::string_view escape_note) {
  if (name.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(format, " entry with an empty name"));
  }
  if (name.front() == '/') {
    return absl::InvalidArgumentError(
        absl::StrCat(format, " entry '", name, "' has an absolute path"));
  }
  for (absl::string_view component : absl::StrSplit(name, '/')) {
    if (component == "..") {
      return absl::InvalidArgumentError(
          absl::StrCat(format, " entry '", name,
                       "' has a '..' component and would escape the destination", escape_note));
    }
  }
  return absl::OkStatus();
}

bool IsInside(const fs::path& path, const fs::path& root) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) return false;
  const fs::path relative = canonical.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

fs::path TemporaryPathBeside(const fs::path& path) {
  static std::atomic<int> counter{0};
  fs::path candidate;
  std::error_code ec;
  do {
    candidate = path.parent_path() /
                absl::StrCat(".", path.filename().string(), ".tmp.", getpid(), ".", counter++);
  } while (fs::exists(fs::symlink_status(candidate, ec)));
  return candidate;
}

absl::Status ExtractEntryData(absl::FunctionRef<int64_t(char*, size_t)> read,
                              absl::FunctionRef<std::string()> read_error, absl::string_view name,
                              const fs::path& archive_path, const fs::path& target,
                              int64_t max_total_bytes, int64_t& total_bytes) {
  std::ofstream out(target, std::ios::binary | std::ios::trunc);
  if (!out) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create '", target.string(), "'"));
  }
  std::string buffer(size_t{1} << 16, '\0');
  while (true) {
    const int64_t n = read(buffer.data(), buffer.size());
    if (n < 0) {
      return absl::InvalidArgumentError(absl::StrCat("corrupt entry '", name, "' in '",
                                                     archive_path.string(), "': ", read_error()));
    }
    if (n == 0) break;
    total_bytes += n;
    if (total_bytes > max_total_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat("extracting '", archive_path.string(),
                                                       "' exceeds the limit of ", max_total_bytes,
                                                       " bytes (at entry '", name, "')"));
    }
    out.write(buffer.data(), n);
    if (!out) return absl::InternalError(absl::StrCat("cannot write '", target.string(), "'"));
  }
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write '", target.string(), "'"));
  return absl::OkStatus();
}

absl::Status CheckArchiveFile(absl::string_view format, const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) {
    return absl::NotFoundError(
        absl::StrCat(format, " archive '", path.string(), "' does not exist"));
  }
  if (!fs::is_regular_file(status)) {
    return absl::InvalidArgumentError(
        absl::StrCat(format, " archive '", path.string(), "' is not a regular file"));
  }
  if (fs::file_size(path, ec) == 0 && !ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", path.string(), "' is not a ", format, " archive: the file is empty"));
  }
  return absl::OkStatus();
}

absl::StatusOr<fs::path> CreateDestination(const fs::path& dest) {
  std::error_code ec;
  fs::create_directories(dest, ec);
  const fs::path root = fs::canonical(dest, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create destination directory '", dest.string(), "': ", ec.message()));
  }
  return root;
}

absl::StatusOr<std::optional<fs::path>> PrepareEntryTarget(absl::string_view format,
                                                           absl::string_view name,
                                                           bool is_directory,
                                                           const fs::path& archive_path,
                                                           const fs::path& dest,
                                                           const fs::path& root) {
  const fs::path target = (root / std::string(name)).lexically_normal();
  const fs::path directory = is_directory ? target : target.parent_path();
  // An existing symlink in `dest` must not carry an entry elsewhere.
  if (!IsInside(directory, root) && directory.lexically_normal() != root) {
    return absl::InvalidArgumentError(absl::StrCat(format, " entry '", name, "' of '",
                                                   archive_path.string(),
                                                   "' would be written outside '", dest.string(),
                                                   "' through a symlink"));
  }
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec) {
    return absl::InvalidArgumentError(absl::StrCat("cannot create directory '",
                                                   directory.string(), "' for entry '", name,
                                                   "': ", ec.message()));
  }
  if (is_directory) return std::optional<fs::path>();
  if (fs::is_symlink(fs::symlink_status(target, ec))) {
    return absl::InvalidArgumentError(absl::StrCat(
        format, " entry '", name, "' would be written through the symlink '", target.string(), "'"));
  }
  return std::optional<fs::path>(target);
}

absl::Status WriteArchiveAtomically(const fs::path& archive_path,
                                    absl::FunctionRef<absl::Status(const fs::path&)> write) {
  std::error_code ec;
  const fs::path parent =
      archive_path.parent_path().empty() ? fs::path(".") : archive_path.parent_path();
  if (!fs::is_directory(parent, ec)) {
    return absl::NotFoundError(
        absl::StrCat("cannot write '", archive_path.string(), "': its directory does not exist"));
  }
  const fs::path temporary = TemporaryPathBeside(archive_path);
  if (absl::Status s = write(temporary); !s.ok()) {
    fs::remove(temporary, ec);
    return s;
  }
  fs::rename(temporary, archive_path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return absl::InternalError(absl::StrCat("cannot move the new archive to '",
                                            archive_path.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace mlebench::archive_internal
