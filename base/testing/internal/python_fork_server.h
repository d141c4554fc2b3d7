// Testonly, internal to base/testing: callers use RunPython and RunPythonFile
// (base/testing/test_util.h).
//
// A reference-Python interpreter that imports numpy and pandas once and forks a
// fresh child for each script, so that a test running a hundred reference
// scripts pays one interpreter start-up and one `import pandas` (0.7 s, 1.3 s
// with scikit-learn) instead of a hundred.
//
// Each child runs its script as `python SCRIPT ARGS...` would: sys.argv is
// [SCRIPT, ARGS...], sys.path[0] the script's directory, a new `__main__`
// module, stdin /dev/null, stdout and stderr together into one file, the
// exit code of SystemExit or 1 with a traceback for an uncaught exception,
// atexit handlers run. What a child changes (module attributes, pandas
// options, random state) dies with it. The modules a script imports at its
// top level from numpy, pandas, sklearn and scipy are imported into the
// server before the fork, so a later script finds them loaded; `random` and
// numpy's global RandomState are reseeded in every child, as a new process
// would seed them. Differences from a new process that a script can see: the
// hash seed (one per server, not per script), and which of those four
// packages are already in sys.modules.
#ifndef MLEBENCH_BASE_TESTING_INTERNAL_PYTHON_FORK_SERVER_H_
#define MLEBENCH_BASE_TESTING_INTERNAL_PYTHON_FORK_SERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace mlebench::testing::internal {

struct ScriptResult {
  int exit_code = -1;  // -1 when the child did not exit normally (a signal)
  std::string output;  // stdout and stderr together
};

class PythonForkServer {
 public:
  // Starts `python` (the reference interpreter) as a server with this
  // process's environment. It imports numpy and pandas in the background;
  // the first Run waits for that.
  static absl::StatusOr<std::unique_ptr<PythonForkServer>> Start(const std::string& python);

  PythonForkServer(const PythonForkServer&) = delete;
  PythonForkServer& operator=(const PythonForkServer&) = delete;
  // Closes the connection (the server exits on it) and waits for the server.
  ~PythonForkServer();

  // Runs `script_path` with `args` in a forked child whose working directory
  // is `cwd`, its output going to `output_path` (created or truncated), and
  // returns its exit code and that output. An error means the server is
  // gone (it died, or a script killed it); this object is then unusable.
  absl::StatusOr<ScriptResult> Run(const std::string& script_path,
                                   const std::vector<std::string>& args, const std::string& cwd,
                                   const std::string& output_path);

 private:
  PythonForkServer(pid_t pid, int socket) : pid_(pid), socket_(socket) {}

  pid_t pid_;
  int socket_;  // both directions: requests in, exit codes out
};

}  // namespace mlebench::testing::internal

#endif  // MLEBENCH_BASE_TESTING_INTERNAL_PYTHON_FORK_SERVER_H_
