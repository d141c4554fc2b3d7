#ifndef MLEBENCH_COMPETITIONS_COMMON_PREPARER_H_
#define MLEBENCH_COMPETITIONS_COMMON_PREPARER_H_

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/id_registry.h"

namespace mlebench {

// A competition's data preparation: upstream's `prepare(raw, public, private)`.
// Reads the raw Kaggle download in `raw` (never modified: scratch files go to
// `scratch`, an empty directory owned by the caller) and writes the files an
// agent sees into `public_dir` and the held-out answers into `private_dir`,
// with the same names, columns and rows as upstream's prepare.py. Runs
// upstream's own checks; a failed check or unreadable input is an error.
using PrepareFn = absl::Status (*)(const std::filesystem::path& raw,
                                   const std::filesystem::path& public_dir,
                                   const std::filesystem::path& private_dir,
                                   const std::filesystem::path& scratch);

struct CompetitionPreparer {
  std::string id;
  PrepareFn prepare = nullptr;
};

// A failed check of upstream's prepare.py (its `assert`): FailedPrecondition
// "check failed: <message>".
absl::Status CheckFailed(std::string_view message);

// Whether `name`, joined to a folder, names an entry directly inside it: not
// empty, not "." or "..", without '/', '\\' or NUL. Preparers check ids that
// become file names with it, so that no copy reaches outside its folder.
bool IsPlainFileName(std::string_view name);

// The file names upstream builds as f"{id}{suffix}" from `table`'s `id` column:
// integer ids in decimal, text ids as they are when they name a file directly
// inside a folder. Anything else (a missing id, a float, text that would reach
// outside the folder) is InvalidArgument "<csv_name> row <i>: 'id' must be an
// integer or a file name".
absl::StatusOr<std::vector<std::string>> IdFileNames(const Table& table, std::string_view csv_name,
                                                     std::string_view suffix);

// Process-wide registry, filled by MLEBENCH_REGISTER_PREPARER in alwayslink
// libraries.
using PreparerRegistry = IdRegistry<CompetitionPreparer>;

// Runs the preparer registered as `id` the way every caller (the Bazel
// prepare action, the CLI, tests) needs it: `raw` must be a directory;
// `public_dir` and `private_dir` are created if absent; `scratch`, when
// given, is created if absent and must be empty (and is kept), otherwise a
// fresh directory under $TMPDIR is used and removed afterwards, whether or
// not the preparer succeeded. Errors are prefixed with the competition id.
absl::Status RunRegisteredPreparer(std::string_view id, const std::filesystem::path& raw,
                                   const std::filesystem::path& public_dir,
                                   const std::filesystem::path& private_dir,
                                   const std::optional<std::filesystem::path>& scratch = std::nullopt);

}  // namespace mlebench

#define MLEBENCH_REGISTER_PREPARER(...) MLEBENCH_REGISTER_IN(::mlebench::PreparerRegistry, __VA_ARGS__)

#endif  // MLEBENCH_COMPETITIONS_COMMON_PREPARER_H_
