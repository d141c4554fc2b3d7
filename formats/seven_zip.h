#ifndef MLEBENCH_FORMATS_SEVEN_ZIP_H_
#define MLEBENCH_FORMATS_SEVEN_ZIP_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// 7z archives on libarchive, for the .7z files of Kaggle downloads and of
// prepared competition data (upstream uses py7zr for both). Our archives hold
// the same entries and bytes as py7zr's would, but not the same archive bytes
// (other compressor settings and header layout).

struct Extract7zOptions {
  // Largest total uncompressed size extracted, in bytes; both declared sizes
  // and the bytes actually decompressed are held to it (7z bombs fail).
  int64_t max_total_bytes = int64_t{64} << 30;
  // Largest number of entries.
  int64_t max_entries = 10'000'000;
};

// Extracts every entry of `archive` under `dest` (created if absent), like
// py7zr's `SevenZipFile(archive).extractall(dest)`: directories are created as
// needed and existing files are overwritten. An entry whose name is absolute or
// has a ".." component, a symlink or hard-link entry, an encrypted entry, or
// one that would be written through a symlink leading outside `dest` is an
// error. The whole archive is checked before anything is written, so such an
// archive leaves `dest` untouched. A missing, empty, corrupt or non-7z
// `archive` is an error naming it; data that fails to decompress or its CRC
// check is an error naming the entry (entries extracted so far stay).
absl::Status Extract7z(const std::filesystem::path& archive, const std::filesystem::path& dest,
                       const Extract7zOptions& options = {});

// The entry names of `archive` in archive order (directories without a
// trailing "/"), like py7zr's `SevenZipFile.getnames()`. (In archives that
// Write7z makes, entries with content come first, in name order, then empty
// files and directories, in name order: the 7z format stores them apart.)
absl::StatusOr<std::vector<std::string>> List7z(const std::filesystem::path& archive);

// One entry to write: its name in the archive ("train/a.jpg") and its
// content, a file to read or the bytes themselves; or a directory.
struct SevenZipEntry {
  enum class Kind { kFile, kBytes, kDirectory };
  std::string name;
  Kind kind = Kind::kBytes;
  std::filesystem::path file;  // for kFile
  std::string bytes;           // for kBytes

  static SevenZipEntry FromFile(std::string name, std::filesystem::path file) {
    return SevenZipEntry{std::move(name), Kind::kFile, std::move(file), {}};
  }
  static SevenZipEntry FromBytes(std::string name, std::string bytes) {
    return SevenZipEntry{std::move(name), Kind::kBytes, {}, std::move(bytes)};
  }
  static SevenZipEntry Directory(std::string name) {
    return SevenZipEntry{std::move(name), Kind::kDirectory, {}, {}};
  }
};

// Writes `entries` to a new LZMA2-compressed 7z `archive` (replacing any
// existing file), sorted by name whatever their given order (see List7z), each with the
// fixed modification time 1980-01-01 00:00:00 UTC and fixed permissions (0644
// files, 0755 directories): the same entries always give byte-identical
// archives. The archive is written beside `archive` and renamed into place, so
// `archive` never holds a partial file. Names must be non-empty, relative,
// free of "." / ".." / empty components, without a trailing "/", and unique.
absl::Status Write7z(const std::filesystem::path& archive, std::vector<SevenZipEntry> entries);

// Writes every regular file under `src_dir` (recursively) to `archive`, named
// `prefix` + its path relative to `src_dir` (`prefix` "train/" gives
// "train/a.jpg"; it may be empty), with no directory entries.
absl::Status SevenZipDirectory(const std::filesystem::path& src_dir, const std::string& prefix,
                               const std::filesystem::path& archive);

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_SEVEN_ZIP_H_
