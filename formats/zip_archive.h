#ifndef MLEBENCH_FORMATS_ZIP_ARCHIVE_H_
#define MLEBENCH_FORMATS_ZIP_ARCHIVE_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// Zip archives on libzip, for the .zip files of Kaggle downloads and of
// prepared competition data (upstream uses Python's zipfile for both).

struct ExtractZipOptions {
  // Largest total uncompressed size extracted, in bytes. Both the sizes the
  // archive declares and the bytes actually decompressed are held to it, so a
  // zip bomb fails with an error instead of filling the disk.
  int64_t max_total_bytes = int64_t{64} << 30;
  // Largest number of entries.
  int64_t max_entries = 10'000'000;
};

// Extracts every entry of `zip` under `dest` (created if absent), like
// Python's `zipfile.ZipFile(zip).extractall(dest)`: directories are created as
// needed and existing files are overwritten. Unlike Python, which silently
// rewrites dangerous names, an entry whose name is absolute or has a ".."
// component (zip-slip), a symlink entry, an encrypted entry, or one that would
// be written through a symlink leading outside `dest` is an error. A missing,
// corrupt or non-zip `zip` (including an empty file) is an error naming it.
// On error, entries extracted so far are left in place.
absl::Status ExtractZip(const std::filesystem::path& zip, const std::filesystem::path& dest,
                        const ExtractZipOptions& options = {});

// The entry names of `zip` in archive order (directories end in "/"), like
// Python's `ZipFile.namelist()`.
absl::StatusOr<std::vector<std::string>> ListZip(const std::filesystem::path& zip);

// One entry to write: its name in the archive ("a/b.csv"; a name ending in
// "/" is a directory entry, whose content must be empty) and its content,
// either a file to read or the bytes themselves.
struct ZipEntry {
  std::string name;
  std::variant<std::filesystem::path, std::string> content;

  static ZipEntry FromFile(std::string name, std::filesystem::path file) {
    return ZipEntry{std::move(name), std::move(file)};
  }
  static ZipEntry FromBytes(std::string name, std::string bytes) {
    return ZipEntry{std::move(name), std::move(bytes)};
  }
  static ZipEntry Directory(std::string name) { return ZipEntry{std::move(name), std::string()}; }
};

// Writes `entries`, in the given order, to a new archive `zip` (replacing any
// existing file), DEFLATE-compressed like Python's ZIP_DEFLATED. Every entry
// gets the fixed timestamp 1980-01-01 00:00:00 and fixed Unix permissions
// (0644 files, 0755 directories), so the same entries give byte-identical
// archives. The archive is written to a temporary file beside `zip` and
// renamed into place, so `zip` never holds a partial archive. Names must be
// non-empty, relative, free of ".." components and unique.
absl::Status WriteZip(const std::filesystem::path& zip, const std::vector<ZipEntry>& entries);

// Writes every regular file under `src_dir` (recursively, following symlinks
// to files) to `zip`, named by its path relative to `src_dir` ("sub/a.jpg"),
// in sorted name order so that the output is deterministic. Directories get
// no entries of their own. Like upstream's `compress(src, zip)`, except for
// that order and the absent directory entries.
absl::Status ZipDirectory(const std::filesystem::path& src_dir, const std::filesystem::path& zip);

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_ZIP_ARCHIVE_H_
