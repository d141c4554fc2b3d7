// The first program inside the agent's sandbox: bwrap starts it, it takes
// away everything the agent must not have, then becomes the agent.
//
//   sandbox_entry --uid U --gid G [--max_file_bytes N] [--proxy_socket PATH
//                 [--socat PATH] [--loader PATH --library_path DIR:DIR...]]
//                 -- AGENT [ARGS...]
//
// It is linked statically (BUILD.bazel): the kernel loads it without a
// dynamic loader, so no library and no file of the system the sandbox shows
// (the host's, or an agent's own root file system, whose /etc/ld.so.preload
// and libraries are the agent author's) is loaded into it before step 4.
//
// In order, failing closed (a message on stderr, exit 125) at any step:
//  1. When it runs as host root (bwrap started by root makes no user
//     namespace, so the kernel would see uid 0 and let it write /proc/sys,
//     the cgroup release_agent and root's files): empties the capability
//     bounding and ambient sets, drops supplementary groups and becomes U:G
//     for real, effective and saved ids, which clears every capability. U = 0
//     is refused. When it runs unprivileged (bwrap made a user namespace for
//     the calling user), U:G must be what it already is.
//  2. Checks that no capability is left (effective, permitted, inheritable,
//     ambient).
//  3. Sets no_new_privs (setuid files cannot give anything back), core dumps
//     off (RLIMIT_CORE 0) and, with --max_file_bytes, RLIMIT_FSIZE: no single
//     file the agent writes can grow beyond it.
//  4. Installs the seccomp filter of seccomp_filter.h.
//  5. With --proxy_socket (network allowlist): starts socat (--socat, default
//     /usr/bin/socat), as the agent's user and under the same filter,
//     listening on the sandbox's 127.0.0.1:3128 and relaying each connection
//     to PATH, the egress proxy's Unix socket (egress_proxy.h); waits until
//     it listens. It is the sandbox init's child, not the agent's. With
//     --loader, socat is started through that dynamic loader with
//     --inhibit-cache --library-path DIRS: the host's socat, loader and
//     libraries, bound at a private place, on an agent's own root file
//     system that has none of them (sandbox.h, kHostSystemPath).
//  6. execv(AGENT): the environment is the one bwrap was given.
// The runner's probe runs this same chain with /bin/true as the agent, so a
// step that cannot be done here fails the probe, and with it the run, before
// the agent starts.

#include <errno.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "agent_runner/proxy_forwarder.h"
#include "agent_runner/seccomp_filter.h"

namespace mlebench {
namespace {

constexpr int kEntryFailed = 125;

[[noreturn]] void Fail(absl::string_view what) {
  const std::string line = absl::StrCat("sandbox_entry: ", what, "\n");
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
  _exit(kEntryFailed);
}

[[noreturn]] void FailErrno(absl::string_view what) {
  Fail(absl::StrCat(what, ": ", std::strerror(errno)));
}

// The Cap* lines of /proc/self/status that must all be zero.
bool HasNoCapabilities(std::string& why) {
  std::ifstream status("/proc/self/status");
  if (!status) {
    why = "cannot read /proc/self/status";
    return false;
  }
  int seen = 0;
  for (std::string line; std::getline(status, line);) {
    for (const char* key : {"CapInh:", "CapPrm:", "CapEff:", "CapAmb:"}) {
      if (line.rfind(key, 0) != 0) continue;
      ++seen;
      const std::string value(absl::StripLeadingAsciiWhitespace(line.substr(std::strlen(key))));
      if (value.find_first_not_of('0') != std::string::npos) {
        why = absl::StrCat("capabilities left: ", line);
        return false;
      }
    }
  }
  if (seen != 4) {
    why = "/proc/self/status lacks capability lines";
    return false;
  }
  return true;
}

void DropToUser(uid_t uid, gid_t gid) {
  if (getuid() != 0 || geteuid() != 0) {
    // Unprivileged already (a user namespace of the calling user): nothing to
    // become, but it must be the user the runner meant.
    if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid) {
      Fail(absl::StrCat("runs as uid ", getuid(), " gid ", getgid(), ", expected ", uid, ":",
                        gid));
    }
    return;
  }
  if (uid == 0) Fail("refusing to run the agent as uid 0");
  // Without the bounding set, nothing exec'd later can gain a capability
  // back, even from file capabilities.
  for (int cap = 0; cap <= 63; ++cap) {
    if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) {
      FailErrno(absl::StrCat("cannot drop capability ", cap, " from the bounding set"));
    }
  }
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
    FailErrno("cannot clear the ambient capabilities");
  }
  if (setgroups(0, nullptr) != 0) FailErrno("cannot drop supplementary groups");
  if (setresgid(gid, gid, gid) != 0) FailErrno(absl::StrCat("cannot become gid ", gid));
  if (setresuid(uid, uid, uid) != 0) FailErrno(absl::StrCat("cannot become uid ", uid));
  uid_t ruid, euid, suid;
  gid_t rgid, egid, sgid;
  if (getresuid(&ruid, &euid, &suid) != 0 || getresgid(&rgid, &egid, &sgid) != 0 ||
      ruid != uid || euid != uid || suid != uid || rgid != gid || egid != gid || sgid != gid) {
    Fail("the user and group ids did not change");
  }
  if (setuid(0) == 0) Fail("could become root again after dropping privileges");
}

void SetLimit(int resource, rlim_t value, absl::string_view name) {
  const struct rlimit limit = {value, value};
  if (setrlimit(resource, &limit) != 0) FailErrno(absl::StrCat("cannot set ", name));
}

// Whether something listens on 127.0.0.1:kSandboxProxyPort in this network
// namespace (/proc/net/tcp: local address 0100007F:PORT, state 0A).
bool ForwarderListens() {
  std::ifstream tcp("/proc/net/tcp");
  char port[8];
  std::snprintf(port, sizeof(port), "%04X", kSandboxProxyPort);
  const std::string local = absl::StrCat("0100007F:", port);
  for (std::string line; std::getline(tcp, line);) {
    std::vector<std::string> fields;
    std::istringstream words(line);
    for (std::string word; words >> word && fields.size() < 4;) fields.push_back(word);
    if (fields.size() == 4 && fields[1] == local && fields[3] == "0A") return true;
  }
  return false;
}

// Starts the forwarder to the egress proxy as a grandchild (reparented to
// the sandbox's init, so the agent never waits for or reaps it) and waits
// until it listens.
void StartProxyForwarder(const std::string& socket, const std::string& socat,
                         const std::string& loader, const std::string& library_path) {
  std::vector<std::string> args = SandboxForwarderArgs(socat, socket);
  if (!loader.empty()) {
    // Nothing of the system around it: the loader's cache (/etc/ld.so.cache)
    // is not read, and the libraries come from `library_path` first.
    args.insert(args.begin(), {loader, "--inhibit-cache", "--library-path", library_path});
  }
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) FailErrno("cannot fork the proxy forwarder");
  if (child == 0) {
    const pid_t forwarder = fork();
    if (forwarder == 0) {
      execv(argv[0], argv.data());
      std::fprintf(stderr, "sandbox_entry: cannot execute %s: %s\n", argv[0], std::strerror(errno));
      _exit(127);
    }
    _exit(forwarder < 0 ? 1 : 0);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    Fail("cannot start the proxy forwarder");
  }
  for (int i = 0; i < 1000; ++i) {
    if (ForwarderListens()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  Fail(absl::StrCat("the proxy forwarder (", argv[0], ") is not listening on 127.0.0.1:",
                    kSandboxProxyPort, " after 5 s"));
}

int Main(int argc, char** argv) {
  int64_t uid = -1;
  int64_t gid = -1;
  int64_t max_file_bytes = 0;
  std::string proxy_socket;
  std::string socat = "/usr/bin/socat";
  std::string loader;
  std::string library_path;
  int i = 1;
  for (; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) Fail(absl::StrCat("flag ", arg, " needs a value"));
    if (arg == "--proxy_socket" || arg == "--socat" || arg == "--loader") {
      std::string& path = arg == "--proxy_socket" ? proxy_socket
                          : arg == "--socat"      ? socat
                                                  : loader;
      path = argv[++i];
      if (path.empty() || path[0] != '/') Fail(absl::StrCat(arg, " must be absolute"));
      continue;
    }
    if (arg == "--library_path") {
      library_path = argv[++i];
      for (absl::string_view dir : absl::StrSplit(library_path, ':')) {
        if (dir.empty() || dir[0] != '/') Fail("--library_path must list absolute directories");
      }
      continue;
    }
    int64_t* target = arg == "--uid"              ? &uid
                      : arg == "--gid"            ? &gid
                      : arg == "--max_file_bytes" ? &max_file_bytes
                                                  : nullptr;
    if (target == nullptr) Fail(absl::StrCat("unknown argument ", arg));
    if (!absl::SimpleAtoi(argv[++i], target) || *target < 0) {
      Fail(absl::StrCat(arg, " needs a non-negative integer, got '", argv[i], "'"));
    }
  }
  if (uid < 0 || gid < 0 || uid > 0xfffffffe || gid > 0xfffffffe) Fail("--uid and --gid are required");
  if (i >= argc) Fail("no agent to run (expected -- AGENT [ARGS...])");
  if (loader.empty() != library_path.empty()) Fail("--loader and --library_path go together");

  DropToUser(static_cast<uid_t>(uid), static_cast<gid_t>(gid));
  std::string why;
  if (!HasNoCapabilities(why)) Fail(why);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) FailErrno("cannot set no_new_privs");
  SetLimit(RLIMIT_CORE, 0, "RLIMIT_CORE");
  if (max_file_bytes > 0) SetLimit(RLIMIT_FSIZE, static_cast<rlim_t>(max_file_bytes), "RLIMIT_FSIZE");
  if (absl::Status s = InstallAgentSeccompFilter(); !s.ok()) {
    Fail(absl::StrCat("cannot install the seccomp filter: ", s.message()));
  }
  if (!proxy_socket.empty()) StartProxyForwarder(proxy_socket, socat, loader, library_path);
  execv(argv[i], argv + i);
  // The agent's own problem (e.g. ENOEXEC: a script without #!), a result
  // like the runner's own exec failure without isolation: exit status 127.
  const int error = errno;
  std::fprintf(stderr, "sandbox_entry: cannot execute %s: %s\n", argv[i], std::strerror(error));
  return 127;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) { return mlebench::Main(argc, argv); }
