// What the ZIP, 7z and tar code share about entry names and the files entries
// become (formats-internal: callers use zip_archive.h, seven_zip.h and
// tar_archive.h).
#ifndef MLEBENCH_FORMATS_INTERNAL_ARCHIVE_FILES_H_
#define MLEBENCH_FORMATS_INTERNAL_ARCHIVE_FILES_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mlebench::archive_internal {

// Checks an entry name of a `format` archive ("zip", "7z"): not empty, not
// absolute, no ".." component. "." components and a trailing "/" pass.
// `escape_note` ends the ".." message (e.g. " (zip-slip)").
absl::Status CheckEntryName(absl::string_view format, absl::string_view name,
                            absl::string_view escape_note);

// Checks that `path` can be opened as a `format` archive: NotFoundError
// "<format> archive '<path>' does not exist", InvalidArgumentError when it is
// not a regular file or is empty ("'<path>' is not a <format> archive: the
// file is empty"; libraries would read an empty file as an empty archive).
absl::Status CheckArchiveFile(absl::string_view format, const std::filesystem::path& path);

// Creates the extraction destination `dest` and returns its canonical path
// (PermissionDeniedError "cannot create destination directory ..." when it
// cannot be).
absl::StatusOr<std::filesystem::path> CreateDestination(const std::filesystem::path& dest);

// Makes a place for entry `name` (already through CheckEntryName) of the
// `format` archive `archive_path` under `root`, CreateDestination(`dest`):
// creates its directory and returns the file to write, or nullopt for a
// directory entry. InvalidArgumentError, naming the entry, where an existing
// symlink would carry it outside `dest` or be written through, or where its
// directory cannot be created.
absl::StatusOr<std::optional<std::filesystem::path>> PrepareEntryTarget(
    absl::string_view format, absl::string_view name, bool is_directory,
    const std::filesystem::path& archive_path, const std::filesystem::path& dest,
    const std::filesystem::path& root);

// Writes an archive at `archive_path` whole or not at all: `write(temporary)`
// writes it beside `archive_path` (TemporaryPathBeside), which it then
// replaces. NotFoundError "cannot write '<path>': its directory does not
// exist" first; `write`'s error as is, or InternalError when the rename
// fails; the temporary file is removed on any error.
absl::Status WriteArchiveAtomically(
    const std::filesystem::path& archive_path,
    absl::FunctionRef<absl::Status(const std::filesystem::path&)> write);

// Whether `path` (existing or not) lies inside `root` (canonical), or is it,
// once the symlinks on its existing part are resolved.
bool IsInside(const std::filesystem::path& path, const std::filesystem::path& root);

// A path beside `path` that does not exist yet, for writing `path` atomically.
std::filesystem::path TemporaryPathBeside(const std::filesystem::path& path);

// Writes entry `name`'s data to `target`, `read(buffer, size)` at a time
// (bytes read; 0 at the end; negative on an error, which `read_error()` then
// describes), adding them to `total_bytes` and failing (ResourceExhausted)
// once that passes `max_total_bytes`.
absl::Status ExtractEntryData(absl::FunctionRef<int64_t(char*, size_t)> read,
                              absl::FunctionRef<std::string()> read_error, absl::string_view name,
                              const std::filesystem::path& archive_path,
                              const std::filesystem::path& target, int64_t max_total_bytes,
                              int64_t& total_bytes);

}  // namespace mlebench::archive_internal

#endif  // MLEBENCH_FORMATS_INTERNAL_ARCHIVE_FILES_H_
