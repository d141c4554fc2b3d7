#include "formats/internal/archive_files.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
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

}  // namespace mlebench::archive_internal
