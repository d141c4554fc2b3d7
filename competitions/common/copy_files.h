#ifndef MLEBENCH_COMPETITIONS_COMMON_COPY_FILES_H_
#define MLEBENCH_COMPETITIONS_COMMON_COPY_FILES_H_

// Copying raw files into a prepared split, what upstream's preparers do with
// shutil.copy and shutil.copytree. Each copy replaces a file of the same name
// at the destination, keeps the source's bytes and permission bits, and makes
// the destination's missing parent folders. A failure stops at the first file
// (those copied before it stay) and its error names that file.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace mlebench {

// Copies the regular file `from` to `to`.
// NotFoundError "raw data has no file <from>" when `from` is absent or not a
// regular file; InternalError "cannot copy <from> to <to>: <reason>" when the
// folder or the copy cannot be made.
absl::Status CopyRegularFile(const std::filesystem::path& from, const std::filesystem::path& to);

// Copies `from_dir`/<name><suffix> to `to_dir`/<name><suffix> for each of
// `names` in order (e.g. ids with suffix ".jpg"), making `to_dir` first, also
// when `names` is empty. A name is joined as a relative path: the caller keeps
// names that must not reach outside `from_dir` plain.
// NotFoundError "raw data has no file <F>/<name><suffix>", F being
// `from_dir`'s last component, when that file is absent or not a regular file;
// InternalError "cannot copy <F>/<name><suffix>: <reason>" when the copy fails.
absl::Status CopyNamedFiles(const std::filesystem::path& from_dir,
                            const std::filesystem::path& to_dir,
                            const std::vector<std::string>& names, std::string_view suffix = "");

// Copies the folder `from` with everything under it to `to` (merged into `to`
// when it exists, replacing files of the same name).
// NotFoundError "raw data has no folder <from>" when `from` is absent or not a
// folder; InternalError "cannot copy <from> to <to>: <reason>" otherwise.
absl::Status CopyFolderTree(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_COMMON_COPY_FILES_H_
