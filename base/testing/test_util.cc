#include "base/testing/test_util.h"

#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/testing/internal/python_fork_server.h"
#include "gtest/gtest.h"

extern char** environ;

namespace mlebench::testing {
namespace fs = std::filesystem;

fs::path NewTempDir(std::string_view label) {
  static std::atomic<int> counter{0};
  const char* root = std::getenv("TEST_TMPDIR");
  const fs::path base = root != nullptr ? fs::path(root) : fs::temp_directory_path();
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
