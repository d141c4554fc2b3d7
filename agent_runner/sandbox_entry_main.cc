// The first program inside the agent's sandbox: bwrap starts it, it takes
// away everything the agent must not have, then becomes the agent.
//
//   sandbox_entry --uid U --gid G [--max_file_bytes N] -- AGENT [ARGS...]
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
//  5. execv(AGENT): the environment is the one bwrap was given.
// The runner's probe runs this same chain with /bin/true as the agent, so a
// step that cannot be done here fails the probe, and with it the run, before
// the agent starts.

#include <errno.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
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

int Main(int argc, char** argv) {
  int64_t uid = -1;
  int64_t gid = -1;
  int64_t max_file_bytes = 0;
  int i = 1;
  for (; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) Fail(absl::StrCat("flag ", arg, " needs a value"));
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

  DropToUser(static_cast<uid_t>(uid), static_cast<gid_t>(gid));
  std::string why;
  if (!HasNoCapabilities(why)) Fail(why);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) FailErrno("cannot set no_new_privs");
  SetLimit(RLIMIT_CORE, 0, "RLIMIT_CORE");
  if (max_file_bytes > 0) SetLimit(RLIMIT_FSIZE, static_cast<rlim_t>(max_file_bytes), "RLIMIT_FSIZE");
  if (absl::Status s = InstallAgentSeccompFilter(); !s.ok()) {
    Fail(absl::StrCat("cannot install the seccomp filter: ", s.message()));
  }
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
