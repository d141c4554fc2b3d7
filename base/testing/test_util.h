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

// Where NewTempDir makes its directories, chosen once per process:
// - $MLEBENCH_TEST_SCRATCH when set (e.g. `--test_env=MLEBENCH_TEST_SCRATCH=DIR
//   --sandbox_writable_path=DIR` to keep a failed test's files; nothing
//   removes them);
// - else a directory of its own on /dev/shm, when that is a writable tmpfs
//   with 2 GiB free: tests here write and delete tens of thousands of files,
//   and on a cloud VM's disk that took AI4Code's tests 25 to 67 s instead of
//   13 (docs/performance.md). Only this user may enter it; it is removed when
//   the process exits normally, and what a crashed run left is removed by
//   the next run of the same test (the name holds a hash of $TEST_TMPDIR,
//   which Bazel gives each test action, and the process id);
// - else $TEST_TMPDIR (or the system temp directory).
const std::filesystem::path& TestScratchRoot();

// A new empty directory under TestScratchRoot(), unique within the process;
// `label` makes it recognisable.
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

// Runs the Python file `script` as `ReferencePython() script args...` would,
// in a child forked from a server process that has imported numpy and pandas
// once (and keeps the numpy, pandas, sklearn and scipy modules that scripts
// import), so that a script costs a fork instead of an interpreter start-up.
// Each script gets a fresh `__main__`, this process's working directory, an
// empty stdin; what it changes dies with it. The server runs with this
// process's environment as it was when the server started; after a change
// to the environment, the next call starts a new server. The hash seed is
// one per server (base/testing/internal/python_fork_server.h has the
// details). A server that died (a script killed it) is an exit code of -1
// with the reason in `output`; the next call starts a new one.
CommandResult RunPythonFile(const std::filesystem::path& script,
                            const std::vector<std::string>& args = {});

// Writes `script` to a new temporary file and runs it with RunPythonFile.
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
