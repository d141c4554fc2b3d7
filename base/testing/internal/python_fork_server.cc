#include "base/testing/internal/python_fork_server.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"

extern char** environ;

namespace mlebench::testing::internal {
namespace {

// The descriptor the server finds its end of the socket on.
constexpr int kServerFd = 3;

// The server, run as `python -c kServer 3`. A request is a line with the
// number of fields, then each field as a line with its length in bytes and
// the bytes: cwd, output path, script path, arguments. The answer is the exit
// code on a line.
constexpr char kServer[] = R"py(
import os, socket, sys
del sys.path[0]  # '' under -c: nothing is imported from the working directory
sock = socket.socket(fileno=int(sys.argv[1]))
sys.argv = sys.argv[:1]
import ast, atexit, importlib, random, threading, traceback, types
import numpy, pandas

PRELOADED = ("numpy", "pandas", "sklearn", "scipy")


def preload(script):
    try:
        with open(script, "rb") as f:
            tree = ast.parse(f.read())
    except BaseException:
        return  # the child reports it
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PRELOADED and name not in sys.modules:
                try:
                    importlib.import_module(name)
                except BaseException:
                    pass  # the child raises it again, where it belongs


def exit_code_of(error):
    if error.code is None:
        return 0
    if isinstance(error.code, int):
        return error.code & 0xFF
    print(error.code, file=sys.stderr)
    return 1


def run(script, main):
    try:
        with open(script, "rb") as f:
            source = f.read()
        exec(compile(source, script, "exec"), main.__dict__)
        code = 0
    except SystemExit as error:
        code = exit_code_of(error)
    except BaseException as error:
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        code = 1
    # What the interpreter does at exit: wait for non-daemon threads, run atexit.
    for shutdown in (threading._shutdown, atexit._run_exitfuncs):
        try:
            shutdown()
        except BaseException:
            traceback.print_exc()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            code = code or 120
    return code


def child(cwd, output, script, args):
    code = 1
    try:
        os.close(sock.fileno())
        os.chdir(cwd)
        fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        random.seed()
        numpy.random.seed()
        sys.argv = [script] + args
        sys.path.insert(0, os.path.dirname(os.path.realpath(script)))
        main = types.ModuleType("__main__")
        main.__file__ = script
        sys.modules["__main__"] = main
        code = run(script, main)
    finally:
        os._exit(code)


requests = sock.makefile("rb")
while True:
    header = requests.readline()
    if not header:
        break
    fields = []
    for _ in range(int(header)):
        fields.append(os.fsdecode(requests.read(int(requests.readline()))))
    cwd, output, script, *args = fields
    preload(script)
    pid = os.fork()
    if pid == 0:
        child(cwd, output, script, args)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    sock.sendall(b"%d\n" % (code if code >= 0 else -1))
)py";

absl::Status ErrnoError(std::string_view what) {
  return absl::InternalError(absl::StrCat(std::string(what), ": ", std::strerror(errno)));
}

void AppendField(std::string_view field, std::string& request) {
  absl::StrAppend(&request, field.size(), "\n");
  request.append(field);
}

}  // namespace

absl::StatusOr<std::unique_ptr<PythonForkServer>> PythonForkServer::Start(
    const std::string& python) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return ErrnoError("socketpair for the Python fork server");
  }
  // dup2 onto the same descriptor would keep its close-on-exec flag.
  if (fds[1] == kServerFd) {
    const int moved = fcntl(fds[1], F_DUPFD_CLOEXEC, kServerFd + 1);
    close(fds[1]);
    fds[1] = moved;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], kServerFd);
  const std::string fd_text = absl::StrCat(kServerFd);
  std::vector<char*> argv = {const_cast<char*>(python.c_str()), const_cast<char*>("-c"),
                             const_cast<char*>(kServer), const_cast<char*>(fd_text.c_str()),
                             nullptr};
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, python.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return absl::InternalError(absl::StrCat(
        "cannot start ", python, " as the Python fork server: ", std::strerror(spawned)));
  }
  return std::unique_ptr<PythonForkServer>(new PythonForkServer(pid, fds[0]));
}

PythonForkServer::~PythonForkServer() {
  close(socket_);
  int status;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

absl::StatusOr<ScriptResult> PythonForkServer::Run(const std::string& script_path,
                                                   const std::vector<std::string>& args,
                                                   const std::string& cwd,
                                                   const std::string& output_path) {
  std::string request = absl::StrCat(3 + args.size(), "\n");
  AppendField(cwd, request);
  AppendField(output_path, request);
  AppendField(script_path, request);
  for (const std::string& arg : args) AppendField(arg, request);
  for (size_t sent = 0; sent < request.size();) {
    const ssize_t n = send(socket_, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoError("the Python fork server is gone (sending a request)");
    sent += static_cast<size_t>(n);
  }
  std::string answer;
  while (answer.empty() || answer.back() != '\n') {
    char buffer[64];
    const ssize_t n = recv(socket_, buffer, sizeof(buffer), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return absl::InternalError(absl::StrCat(
          "the Python fork server exited while running ", script_path,
          "; the script's output so far: ", ReadFileToString(output_path).value_or("")));
    }
    answer.append(buffer, static_cast<size_t>(n));
  }
  ScriptResult result;
  answer.pop_back();
  if (!absl::SimpleAtoi(answer, &result.exit_code)) {
    return absl::InternalError(absl::StrCat("the Python fork server answered \"", answer, "\""));
  }
  absl::StatusOr<std::string> output = ReadFileToString(output_path);
  if (!output.ok()) return output.status();
  result.output = *std::move(output);
  return result;
}

}  // namespace mlebench::testing::internal
