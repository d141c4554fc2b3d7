#ifndef MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_
#define MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench::testing {

// Where a preparer wrote its outputs.
struct PreparedDirs {
  std::filesystem::path public_dir;
  std::filesystem::path private_dir;
};

// Runs the preparer registered as `id` on `raw`, into fresh public/,
// private/ and scratch/ directories under a new temp dir (as prepare_main
// would). NotFoundError if no preparer is registered as `id`; otherwise the
// preparer's own status.
absl::StatusOr<PreparedDirs> RunPreparer(std::string_view id, const std::filesystem::path& raw);

// Upstream's preparers must be deterministic and must not touch raw/ (ours
// never extract into it, even where upstream does): runs the preparer twice
// on `raw` and fails the test unless both runs wrote byte-identical public/
// and private/ trees and raw/ is exactly as before. Returns the first run's
// directories (nullopt when a run failed, which also fails the test).
std::optional<PreparedDirs> ExpectDeterministicAndRawUntouched(std::string_view id,
                                                               const std::filesystem::path& raw);

// Reads a CSV the way upstream's read_csv does; a read error fails the test
// and gives an empty Table.
Table ReadCsvOrFail(const std::filesystem::path& path);

// The paths of the regular files under `dir`, relative to it, sorted.
std::vector<std::string> FileNames(const std::filesystem::path& dir);

}  // namespace mlebench::testing

#endif  // MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_
