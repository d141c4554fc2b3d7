#include "competitions/common/copy_files.h"

#include <system_error>

#include "absl/strings/str_cat.h"

namespace mlebench {

namespace fs = std::filesystem;

namespace {

// Makes `to`'s parent folders and copies `from` over `to`; `from` is known to
// be a regular file.
std::error_code CopyOver(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (to.has_parent_path()) fs::create_directories(to.parent_path(), error);
  if (!error) fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  return error;
}

}  // namespace

absl::Status CopyRegularFile(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::is_regular_file(from, error)) {
    return absl::NotFoundError(absl::StrCat("raw data has no file ", from.string()));
  }
  error = CopyOver(from, to);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status CopyNamedFiles(const fs::path& from_dir, const fs::path& to_dir,
                            const std::vector<std::string>& names, std::string_view suffix) {
  std::error_code error;
  fs::create_directories(to_dir, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot create ", to_dir.string(), ": ", error.message()));
  }
  const std::string folder = from_dir.filename().string();
  for (const std::string& name : names) {
    const std::string file = name + std::string(suffix);
    const fs::path source = from_dir / file;
    if (!fs::is_regular_file(source, error)) {
      return absl::NotFoundError(absl::StrCat("raw data has no file ", folder, "/", file));
    }
    error = CopyOver(source, to_dir / file);
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot copy ", folder, "/", file, ": ", error.message()));
    }
  }
  return absl::OkStatus();
}

absl::Status CopyFolderTree(const fs::path& from, const fs::path& to) {
  std::error_code error;
  if (!fs::is_directory(from, error)) {
    return absl::NotFoundError(absl::StrCat("raw data has no folder ", from.string()));
  }
  fs::create_directories(to, error);
  if (!error) {
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
  }
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
