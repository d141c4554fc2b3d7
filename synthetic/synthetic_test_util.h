// Test helpers for synthetic generators: run one into a temporary directory,
// check the determinism every generator promises.
#ifndef MLEBENCH_SYNTHETIC_SYNTHETIC_TEST_UTIL_H_
#define MLEBENCH_SYNTHETIC_SYNTHETIC_TEST_UTIL_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace mlebench::testing {

// Runs the registered synthetic generator `id` with `seed` into a new
// temporary directory and returns that directory.
absl::StatusOr<std::filesystem::path> GenerateSynthetic(std::string_view id, uint64_t seed);

// Generates `id`'s synthetic raw data with seed 0 twice and with seed 1, and
// returns the seed-0 tree after checking what every generator promises: the
// same seed gives byte-identical files, and another seed gives other data
// (some file differs; the file set may differ too). An error names the file
// that breaks the promise.
absl::StatusOr<std::map<std::string, std::string>> DeterministicSyntheticTree(std::string_view id);

}  // namespace mlebench::testing

#endif  // MLEBENCH_SYNTHETIC_SYNTHETIC_TEST_UTIL_H_
