// What the ZIP, 7z and tar code share about entry names and the files entries
// become (formats-internal: callers use zip_archive.h, seven_zip.h and
// tar_archive.h).
#ifndef MLEBENCH_FORMATS_INTERNAL_ARCHIVE_FILES_H_
#define MLEBENCH_FORMATS_INTERNAL_ARCHIVE_FILES_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mlebench::archive_internal {

// Checks an entry name of a `format` archive ("zip", "7z"): not empty, not
// absolute, no ".." component. "." components and a trailing "/" pass.
// `escape_note` ends the ".." message (e.g. " (zip-slip)").
absl::Status CheckEntryName(absl::string_view format, absl::string_view name,
                            absl::string_view escape_note);

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
