// run_reproducibly GUARD_LIBRARY OUTPUT INPUT_LIST COMMAND [ARGS...]
//
// Runs COMMAND (GCC writing a precompiled header to OUTPUT) so that the bytes
// it writes depend on nothing but its inputs and arguments. GCC writes heap
// addresses, stale stack words and hash tables ordered by address into a
// .gch, so everything that moves an allocation changes the file: the path of
// the working directory (a sandbox directory whose name has the output base's
// hash and a counter in it), where the inputs' symlinks lead (GCC resolves the
// header's real path), the environment (its strings sit above the stack),
// the stack size limit (it places every mmap), and the randomness of address
// layout and of the stack-protector guard.
//
// So COMMAND runs in a world of fixed shape, in a private user and mount
// namespace:
//   - a fresh tmpfs on /tmp holds copies of the files named in INPUT_LIST
//     (paths relative to the working directory, one a line; symlinks
//     followed, directories copied whole) under /tmp/execroot, the working
//     directory, and GUARD_LIBRARY as /tmp/fixed_stack_guard.so;
//   - the environment is PATH=/usr/bin:/bin, PWD, TMPDIR=/tmp and
//     LD_PRELOAD=/tmp/fixed_stack_guard.so, nothing else: the library sets
//     the stack-protector guard, which the kernel draws at random for each
//     process, to a constant (fixed_stack_guard.cc);
//   - address-space randomisation is off (personality(ADDR_NO_RANDOMIZE),
//     inherited by every process COMMAND starts), and the stack size limit is
//     64 MiB, soft and hard (GCC raises its soft limit to 64 MiB itself).
// When COMMAND succeeds, /tmp/execroot/OUTPUT is copied to OUTPUT in the
// original working directory; the tmpfs vanishes with the namespace.
//
// Where any of that cannot be set up (a seccomp filter or a container that
// refuses user namespaces or the personality), it fails with a message that
// says what was refused; `--//bazel:precompiled_headers=off` builds without
// precompiled headers there.
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Where the copies live inside the namespace. Fixed paths, so that every
// machine's compile sees the same ones.
constexpr char kRoot[] = "/tmp";
constexpr char kExecRoot[] = "/tmp/execroot";
constexpr char kGuard[] = "/tmp/fixed_stack_guard.so";
constexpr rlim_t kStackLimit = 64 << 20;

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "run_reproducibly: %s\n", message.c_str());
  std::exit(1);
}

[[noreturn]] void FailErrno(const std::string& what) {
  Fail(what + ": " + std::strerror(errno));
}

// What a namespace or personality refusal means for the user.
[[noreturn]] void FailSetup(const std::string& what) {
  Fail(what + ": " + std::strerror(errno) +
       ". Precompiled headers are compiled in a private user and mount namespace with address "
       "randomisation off, so that they are the same bytes on every machine; where that is "
       "refused (a container's seccomp filter, user namespaces disabled), build with "
       "--//bazel:precompiled_headers=off");
}

// A file or directory to recreate inside the namespace, read beforehand: the
// namespace's tmpfs on /tmp hides whatever the inputs' symlinks point to
// under /tmp (an output base there, say).
struct InputFile {
  fs::path path;  // relative
  bool directory = false;
  bool executable = false;
  std::string contents;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) FailErrno("cannot read " + path.string());
  std::string contents((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) FailErrno("cannot read " + path.string());
  return contents;
}

void WriteFile(const fs::path& path, const std::string& contents, bool executable) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.close();
  if (!out) FailErrno("cannot write " + path.string());
  if (executable) {
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
  }
}

void ReadInput(const fs::path& path, std::vector<InputFile>& files) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);  // follows symlinks
  if (error) Fail("input " + path.string() + ": " + error.message());
  if (fs::is_directory(status)) {
    files.push_back({path, /*directory=*/true, false, ""});
    for (const fs::directory_entry& entry : fs::directory_iterator(path)) {
      ReadInput(entry.path(), files);
    }
  } else if (fs::is_regular_file(status)) {
    const bool executable = (status.permissions() & fs::perms::owner_exec) != fs::perms::none;
    files.push_back({path, false, executable, ReadFile(path)});
  } else {
    Fail("input " + path.string() + " is neither a file nor a directory");
  }
}

std::vector<InputFile> ReadInputs(const char* input_list) {
  std::istringstream lines(ReadFile(input_list));
  std::vector<InputFile> files;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    const fs::path path(line);
    bool inside = path.is_relative();
    for (const fs::path& part : path) inside = inside && part != "..";
    if (!inside) Fail("input " + line + " is not a path inside the working directory");
    ReadInput(path, files);
  }
  return files;
}

void WriteMapping(const char* file, const std::string& contents) {
  const int fd = open(file, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, contents.data(), contents.size()) != static_cast<ssize_t>(contents.size())) {
    FailSetup(std::string("cannot write ") + file);
  }
  close(fd);
}

// Enters a new user and mount namespace (keeping this user's ids) and mounts
// a fresh tmpfs on /tmp there.
void EnterPrivateTmp() {
  const uid_t uid = geteuid();
  const gid_t gid = getegid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
    FailSetup("cannot create a user and mount namespace (unshare)");
  }
  WriteMapping("/proc/self/setgroups", "deny");
  WriteMapping("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1\n");
  WriteMapping("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1\n");
  if (mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    FailSetup("cannot make the mounts private to the namespace");
  }
  if (mount("tmpfs", kRoot, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") != 0) {
    FailSetup(std::string("cannot mount a tmpfs on ") + kRoot);
  }
}

int Run(char** command) {
  const pid_t child = fork();
  if (child < 0) FailErrno("fork");
  if (child == 0) {
    clearenv();
    if (setenv("PATH", "/usr/bin:/bin", 1) != 0 || setenv("PWD", kExecRoot, 1) != 0 ||
        setenv("TMPDIR", kRoot, 1) != 0 || setenv("LD_PRELOAD", kGuard, 1) != 0) {
      std::perror("run_reproducibly: setenv");
      _exit(127);
    }
    execv(command[0], command);
    std::fprintf(stderr, "run_reproducibly: cannot run %s: %s\n", command[0],
                 std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) FailErrno("waitpid");
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::fprintf(stderr, "run_reproducibly: %s killed by signal %d\n", command[0],
               WTERMSIG(status));
  return 128 + WTERMSIG(status);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: run_reproducibly GUARD_LIBRARY OUTPUT INPUT_LIST COMMAND [ARGS...]\n");
    return 2;
  }
  const fs::path output = argv[2];
  if (output.is_absolute()) Fail("OUTPUT must be relative to the working directory");

  // Everything from outside is read before /tmp is covered.
  const std::string guard = ReadFile(argv[1]);
  const std::vector<InputFile> inputs = ReadInputs(argv[3]);
  // OUTPUT is opened outside too: a path there may lead through /tmp.
  const int output_fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (output_fd < 0) FailErrno("cannot write " + output.string());

  const int persona = personality(0xffffffff);
  if (persona == -1 || personality(persona | ADDR_NO_RANDOMIZE) == -1) {
    FailSetup("cannot turn address randomisation off (personality)");
  }
  const rlimit stack = {kStackLimit, kStackLimit};
  rlimit current;
  if (getrlimit(RLIMIT_STACK, &current) != 0) FailErrno("getrlimit");
  if (current.rlim_max != RLIM_INFINITY && current.rlim_max < kStackLimit) {
    Fail("the stack size limit's hard limit is below 64 MiB (ulimit -Hs); GCC's layout of "
         "memory, and so its precompiled header, depends on it");
  }
  if (setrlimit(RLIMIT_STACK, &stack) != 0) FailErrno("setrlimit(RLIMIT_STACK)");

  EnterPrivateTmp();
  for (const InputFile& file : inputs) {
    const fs::path path = fs::path(kExecRoot) / file.path;
    std::error_code error;
    fs::create_directories(file.directory ? path : path.parent_path(), error);
    if (error) Fail("cannot create " + path.string() + ": " + error.message());
    if (!file.directory) WriteFile(path, file.contents, file.executable);
  }
  WriteFile(kGuard, guard, false);
  const fs::path inside_output = fs::path(kExecRoot) / output;
  std::error_code error;
  fs::create_directories(inside_output.parent_path(), error);
  if (error) Fail("cannot create " + inside_output.parent_path().string() + ": " + error.message());
  if (chdir(kExecRoot) != 0) FailErrno(std::string("chdir ") + kExecRoot);

  const int status = Run(argv + 4);
  if (status != 0) return status;

  const std::string result = ReadFile(inside_output);
  const int fd = output_fd;
  for (size_t written = 0; written < result.size();) {
    const ssize_t n = write(fd, result.data() + written, result.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      FailErrno("cannot write " + output.string());
    }
    written += static_cast<size_t>(n);
  }
  if (close(fd) != 0) FailErrno("cannot write " + output.string());
  return 0;
}
