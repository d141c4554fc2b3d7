#ifndef MLEBENCH_TESTDATA_COMMON_TEST_UTIL_H_
#define MLEBENCH_TESTDATA_COMMON_TEST_UTIL_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench::testing {

// A new empty directory under $TEST_TMPDIR (or the system temp directory),
// unique within the process; `label` makes it recognisable.
std::filesystem::path NewTempDir(std::string_view label);

struct CommandResult {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs `argv` (no shell interpretation of its words) and collects its output.
CommandResult RunCommand(const std::vector<std::string>& argv);

// Runs `script` with Debian's /usr/bin/python3 (which has numpy, pandas,
// scikit-learn and PIL) and `args` as sys.argv[1:].
CommandResult RunPython(std::string_view script, const std::vector<std::string>& args = {});

// Every regular file under `dir`, keyed by its path relative to `dir`
// ("a/b.csv"), with its bytes: comparing two of these compares two trees.
std::map<std::string, std::string> ReadTree(const std::filesystem::path& dir);

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

#endif  // MLEBENCH_TESTDATA_COMMON_TEST_UTIL_H_
