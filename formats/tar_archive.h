#ifndef MLEBENCH_FORMATS_TAR_ARCHIVE_H_
#define MLEBENCH_FORMATS_TAR_ARCHIVE_H_

// Tar archives (plain or compressed) on libarchive: listing what extracting one would put
// at the top level of its destination (without extracting it), and writing
// deterministic ones for synthetic Kaggle downloads.

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// The names that `shutil.unpack_archive(archive, dest)` would create directly
// inside an empty `dest`: the first path component of every entry ("a.zip"
// for "a.zip", "d" for "d/x.zip"), without duplicates, in name order. A
// leading "./" is skipped. Any tar that libarchive reads is accepted
// (plain, gzip, bzip2, xz). A missing, empty or corrupt archive, or an entry
// whose name is absolute or has a ".." component, is an error.
absl::StatusOr<std::vector<std::string>> TarTopLevelNames(const std::filesystem::path& archive);

struct ExtractTarOptions {
  // Largest total size extracted, in bytes. The sizes the entries declare are
  // held to it before anything is written, and the bytes actually written as
  // they come, so a compressed tar bomb fails with an error (ResourceExhausted)
  // instead of filling the disk.
  int64_t max_total_bytes = int64_t{64} << 30;
  // Largest number of entries.
  int64_t max_entries = 10'000'000;
};

// Extracts the regular files and directories of the tar `archive` (plain or
// compressed) under `dest` (created if absent), like
// `shutil.unpack_archive(archive, dest)`. Absolute names, ".." components,
// links, special files, an entry that a symlink already in `dest` would carry
// outside it, and archives over `options`' limits are errors (checked before
// anything is written, except bytes past what an entry declared); existing
// files are overwritten.
absl::Status ExtractTar(const std::filesystem::path& archive, const std::filesystem::path& dest,
                        const ExtractTarOptions& options = {});

// One regular file to write: its name in the archive and its content, the
// bytes given or, when `file` is set, that file's (streamed, not loaded).
struct TarEntry {
  std::string name;
  std::string bytes;
  std::filesystem::path file;
};

// Writes `entries`, in the given order, to a new POSIX tar `archive`
// (replacing any existing file), gzip-compressed when `gzip`: modification
// time 0, owner 0:0 without names, mode 0644, and a gzip header without a
// time stamp, so the same entries give byte-identical archives. Names must
// be non-empty and relative, without ".." components.
absl::Status WriteTar(const std::filesystem::path& archive, const std::vector<TarEntry>& entries,
                      bool gzip);
inline absl::Status WriteTarGz(const std::filesystem::path& archive,
                               const std::vector<TarEntry>& entries) {
  return WriteTar(archive, entries, /*gzip=*/true);
}

}  // namespace mlebench

#endif  // MLEBENCH_FORMATS_TAR_ARCHIVE_H_
