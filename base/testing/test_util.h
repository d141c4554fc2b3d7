#ifndef MLEBENCH_BASE_TESTING_TEST_UTIL_H_
#define MLEBENCH_BASE_TESTING_TEST_UTIL_H_

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

// The reference Python interpreter: the virtual environment ./bazelw makes
// from tools/python/requirements.lock (upstream's grading libraries at the
// versions its container pins: pandas 2.2.2, scikit-learn 1.5.1, ...), which
// the test environment names in MLEBENCH_PYTHON. Without it (bazel run
// without ./bazelw) this is a test failure, and the returned path names the
// problem, so that commands run with it fail too.
const std::string& ReferencePython();

// Runs `script` with ReferencePython() and `args` as sys.argv[1:].
CommandResult RunPython(std::string_view script, const std::vector<std::string>& args = {});

// The bytes of `path`, or "" when it cannot be read (a missing file then
// shows as an empty one in the test's expectations; /proc entries may vanish).
std::string ReadFileOrEmpty(const std::filesystem::path& path);

// The bytes of `path`; a file that cannot be read is a test failure (and "").
std::string ReadFileOrFail(const std::filesystem::path& path);

// Writes `bytes` to `path`, creating its parent directories; failing to is a
// test failure.
void WriteFileOrFail(const std::filesystem::path& path, std::string_view bytes);

// Every regular file under `dir`, keyed by its path relative to `dir`
// ("a/b.csv"), with its bytes: comparing two of these compares two trees.
std::map<std::string, std::string> ReadTree(const std::filesystem::path& dir);

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_TEST_UTIL_H_
