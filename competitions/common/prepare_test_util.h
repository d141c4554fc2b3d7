#ifndef MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_
#define MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_

#include <filesystem>
#include <string_view>

#include "absl/status/statusor.h"

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

}  // namespace mlebench::testing

#endif  // MLEBENCH_COMPETITIONS_COMMON_PREPARE_TEST_UTIL_H_
