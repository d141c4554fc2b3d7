#include "base/testing/test_util.h"

#include <linux/magic.h>
#include <signal.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/testing/internal/python_fork_server.h"
#include "gtest/gtest.h"

extern char** environ;

namespace mlebench::testing {
namespace fs = std::filesystem;

namespace {

// The tmpfs that NewTempDir prefers, and how much room it must have left: the
// largest tests here (AI4Code's, 21,400 notebooks per generated tree) write
// about 1 GB.
constexpr char kSharedMemory[] = "/dev/shm";
constexpr uint64_t kMinScratchBytes = uint64_t{2} << 30;

bool IsRoomyWritableTmpfs(const fs::path& dir) {
  struct statfs fs_stats;
  if (statfs(dir.c_str(), &fs_stats) != 0 || fs_stats.f_type != TMPFS_MAGIC) return false;
  if (access(dir.c_str(), W_OK | X_OK) != 0) return false;
  return static_cast<uint64_t>(fs_stats.f_bavail) * fs_stats.f_bsize >= kMinScratchBytes;
}

pid_t scratch_owner = 0;
const fs::path* scratch_to_remove = nullptr;

void RemoveScratchAtExit() {
  // A child forked by a test that calls exit() must not take the parent's
  // scratch with it.
  if (scratch_to_remove == nullptr || getpid() != scratch_owner) return;
  std::error_code ignored;
  fs::remove_all(*scratch_to_remove, ignored);
}

fs::path ChooseScratchRoot() {
  if (const char* chosen = std::getenv("MLEBENCH_TEST_SCRATCH");
      chosen != nullptr && *chosen != '\0') {
    return fs::path(chosen);
  }
  const char* test_tmpdir = std::getenv("TEST_TMPDIR");
  const fs::path disk = test_tmpdir != nullptr && *test_tmpdir != '\0' ? fs::path(test_tmpdir)
                                                                       : fs::temp_directory_path();
  if (!IsRoomyWritableTmpfs(kSharedMemory)) return disk;
  // Named after the disk directory, which Bazel gives each test action
  // (target, shard, run) to itself, and this process: what a crashed run of
  // the same test left there is removed here, unless its process id has been
  // taken again; a child that re-executes the test binary (a gtest death test)
  // gets a root of its own.
  const std::string prefix =
      absl::StrCat("mlebench-test-", absl::Hex(std::hash<std::string>{}(disk.string())), "-");
  std::error_code ignored;
  for (const fs::directory_entry& entry : fs::directory_iterator(kSharedMemory, ignored)) {
    const std::string name = entry.path().filename().string();
    int pid = 0;
    if (!name.starts_with(prefix) || !absl::SimpleAtoi(name.substr(prefix.size()), &pid)) continue;
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ignored);
  }
  const fs::path root = fs::path(kSharedMemory) / absl::StrCat(prefix, getpid());
  std::error_code error;
  fs::remove_all(root, error);
  if (!error) fs::create_directory(root, error);
  if (!error) fs::permissions(root, fs::perms::owner_all, error);  // /dev/shm is everyone's
  if (error) return disk;
  scratch_owner = getpid();
  scratch_to_remove = new fs::path(root);
  std::atexit(RemoveScratchAtExit);
  return root;
}

}  // namespace

const fs::path& TestScratchRoot() {
  static const fs::path* const root = new fs::path(ChooseScratchRoot());
  return *root;
}

fs::path NewTempDir(std::string_view label) {
  static std::atomic<int> counter{0};
  const fs::path& base = TestScratchRoot();
  fs::path dir;
  do {
    dir = base / absl::StrCat(std::string(label), "_", counter++);
  } while (fs::exists(dir));
  fs::create_directories(dir);
  return dir;
}

namespace {

std::string ShellQuote(std::string_view word) {
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv) {
  std::string command;
  for (const std::string& word : argv) absl::StrAppend(&command, ShellQuote(word), " ");
  command += "2>&1";
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    result.output = "popen failed";
    return result;
  }
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  return result;
}

const std::string& ReferencePython() {
  static const std::string* const python = [] {
    const char* value = std::getenv("MLEBENCH_PYTHON");
    return new std::string(value != nullptr && *value != '\0'
                               ? value
                               : "/MLEBENCH_PYTHON-is-unset-run-tests-with-bazelw");
  }();
  if (python->starts_with("/MLEBENCH_PYTHON-is-unset")) {
    ADD_FAILURE() << "MLEBENCH_PYTHON is not set: run the tests with ./bazelw, which creates the "
                     "Python reference environment and names it (tools/python/requirements.lock)";
  }
  return *python;
}

namespace {

// This process's environment, sorted: a fork server serves the environment
// it started with, so a test that changes a variable gets a new one.
std::string EnvironmentKey() {
  std::vector<std::string> variables;
  for (char** entry = environ; *entry != nullptr; ++entry) variables.emplace_back(*entry);
  std::sort(variables.begin(), variables.end());
  std::string key;
  for (const std::string& variable : variables)
    absl::StrAppend(&key, variable, std::string(1, '\0'));
  return key;
}

}  // namespace

CommandResult RunPythonFile(const fs::path& script, const std::vector<std::string>& args) {
  static std::mutex* const mutex = new std::mutex;
  static std::unique_ptr<internal::PythonForkServer>* const server =
      new std::unique_ptr<internal::PythonForkServer>;
  static std::string* const server_environment = new std::string;
  std::lock_guard<std::mutex> lock(*mutex);
  const std::string environment = EnvironmentKey();
  if (*server != nullptr && environment != *server_environment) server->reset();
  if (*server == nullptr) {
    absl::StatusOr<std::unique_ptr<internal::PythonForkServer>> started =
        internal::PythonForkServer::Start(ReferencePython());
    if (!started.ok()) return CommandResult{-1, std::string(started.status().message())};
    *server = *std::move(started);
    *server_environment = environment;
  }
  std::error_code error;
  const fs::path cwd = fs::current_path(error);
  if (error) return CommandResult{-1, "cannot read the working directory: " + error.message()};
  absl::StatusOr<internal::ScriptResult> result =
      (*server)->Run(fs::absolute(script).string(), args, cwd.string(),
                     (NewTempDir("python_output") / "output").string());
  if (!result.ok()) {
    server->reset();  // the next script starts a new server
    return CommandResult{-1, std::string(result.status().message())};
  }
  return CommandResult{result->exit_code, std::move(result->output)};
}

CommandResult RunPython(std::string_view script, const std::vector<std::string>& args) {
  const fs::path script_path = NewTempDir("python") / "script.py";
  if (absl::Status s = WriteStringToFile(script_path, script); !s.ok()) {
    return CommandResult{-1, std::string(s.message())};
  }
  return RunPythonFile(script_path, args);
}

std::map<std::string, std::string> ReadTree(const fs::path& dir) {
  std::map<std::string, std::string> tree;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    absl::StatusOr<std::string> bytes = ReadFileToString(entry.path());
    tree[entry.path().lexically_relative(dir).generic_string()] =
        bytes.ok() ? *std::move(bytes) : std::string(bytes.status().message());
  }
  return tree;
}

std::string ReadFileOrEmpty(const fs::path& path) {
  return ReadFileToString(path).value_or(std::string());
}

std::string ReadFileOrFail(const fs::path& path) {
  absl::StatusOr<std::string> bytes = ReadFileToString(path);
  if (!bytes.ok()) {
    ADD_FAILURE() << bytes.status();
    return std::string();
  }
  return *std::move(bytes);
}

void WriteFileOrFail(const fs::path& path, std::string_view bytes) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) {
    ADD_FAILURE() << "cannot create " << path.parent_path() << ": " << error.message();
    return;
  }
  if (absl::Status status = WriteStringToFile(path, bytes); !status.ok()) {
    ADD_FAILURE() << status;
  }
}

}  // namespace mlebench::testing
