#include "agent_runner/seccomp_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

extern char** environ;

namespace mlebench {
namespace {

// Added to every errno the filter returns in the "marked" runs: no syscall
// fails with errno 1000 or more, so such a failure can only come from the
// filter, whatever privileges the test has. (The kernel caps it at 4095.)
constexpr int kMark = 1000;

// syscall() is variadic: pass every argument as a full 64-bit register.
template <typename T>
long Arg(T value) {
  if constexpr (std::is_null_pointer_v<T>) {
    return 0;
  } else if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<long>(value);
  } else {
    return static_cast<long>(value);
  }
}
template <typename... T>
long Sys(long nr, T... args) {
  return syscall(nr, Arg(args)...);
}

// clone() as fork() with extra flags; a child it does create leaves at once.
long CloneWith(unsigned long flags) {
  const long pid = syscall(SYS_clone, flags | SIGCHLD, 0L, 0L, 0L, 0L);
  if (pid == 0) _exit(0);
  if (pid > 0) waitpid(static_cast<pid_t>(pid), nullptr, 0);
  return pid;
}

struct Probe {
  std::string name;
  std::function<long()> call;
  // What the filter makes it fail with.
  int filter_errno;
  // Without the filter the call never fails with `filter_errno`, whatever
  // the test's privileges (checked by the control run).
  bool distinct_without_filter = false;
};

// One call per denied syscall, with arguments that keep it harmless should
// the filter let it through (bad pointers, invalid flags or magic numbers);
// where a privileged call would then succeed, it changes nothing outside the
// child that runs it.
std::vector<Probe> DeniedProbes() {
  std::vector<Probe> probes = {
      {"mount", [] { return Sys(SYS_mount, nullptr, nullptr, nullptr, 0, nullptr); }, EPERM},
      {"umount2", [] { return Sys(SYS_umount2, nullptr, 0); }, EPERM},
      {"pivot_root", [] { return Sys(SYS_pivot_root, nullptr, nullptr); }, EPERM},
      {"chroot", [] { return Sys(SYS_chroot, nullptr); }, EPERM},
      {"move_mount", [] { return Sys(SYS_move_mount, -1, nullptr, -1, nullptr, ~0u); }, EPERM},
      {"open_tree", [] { return Sys(SYS_open_tree, -1, nullptr, ~0u); }, EPERM},
      {"fsopen", [] { return Sys(SYS_fsopen, nullptr, ~0u); }, EPERM},
      {"fsconfig", [] { return Sys(SYS_fsconfig, -1, 0, nullptr, nullptr, 0); }, EPERM},
      {"fsmount", [] { return Sys(SYS_fsmount, -1, 0, 0); }, EPERM},
      {"fspick", [] { return Sys(SYS_fspick, -1, nullptr, ~0u); }, EPERM},
      {"mount_setattr", [] { return Sys(SYS_mount_setattr, -1, nullptr, ~0u, nullptr, 0); }, EPERM},
      {"unshare", [] { return Sys(SYS_unshare, CLONE_NEWUSER); }, EPERM},
      // EBADF without the filter: the descriptor is looked at first.
      {"setns", [] { return Sys(SYS_setns, -1, 0); }, EPERM, true},
      {"swapon", [] { return Sys(SYS_swapon, nullptr, 0); }, EPERM},
      {"swapoff", [] { return Sys(SYS_swapoff, nullptr); }, EPERM},
      // No magic numbers: EINVAL for root.
      {"reboot", [] { return Sys(SYS_reboot, 0, 0, 0, nullptr); }, EPERM},
      // An unknown flag and too many segments: EINVAL for root, never an unload.
      {"kexec_load", [] { return Sys(SYS_kexec_load, 0, 1 << 20, nullptr, 0x8000); }, EPERM},
      {"kexec_file_load",
       [] { return Sys(SYS_kexec_file_load, -1, -1, 0, nullptr, 0x80000000ul); }, EPERM},
      {"init_module", [] { return Sys(SYS_init_module, nullptr, 0, ""); }, EPERM},
      {"finit_module", [] { return Sys(SYS_finit_module, -1, "", 0); }, EPERM},
      {"delete_module", [] { return Sys(SYS_delete_module, nullptr, 0); }, EPERM},
      // Not acct(NULL), which would turn accounting off.
      {"acct", [] { return Sys(SYS_acct, "/nonexistent/mlebench-acct"); }, EPERM},
      {"quotactl", [] { return Sys(SYS_quotactl, 0, nullptr, 0, nullptr); }, EPERM},
      {"iopl", [] { return Sys(SYS_iopl, 4); }, EPERM},
      // Past the I/O bitmap: EINVAL (or ENOSYS) before any privilege check.
      {"ioperm", [] { return Sys(SYS_ioperm, 1 << 16, 1, 0); }, EPERM, true},
      // The child is in a session of its own, without a controlling terminal.
      {"vhangup", [] { return Sys(SYS_vhangup); }, EPERM},
      {"syslog", [] { return Sys(SYS_syslog, 100, nullptr, 0); }, EPERM},
      {"uselib", [] { return Sys(SYS_uselib, nullptr); }, EPERM},
      // Sets nothing.
      {"settimeofday", [] { return Sys(SYS_settimeofday, nullptr, nullptr); }, EPERM},
      {"clock_settime", [] { return Sys(SYS_clock_settime, CLOCK_MONOTONIC, nullptr); }, EPERM},
      {"clock_adjtime", [] { return Sys(SYS_clock_adjtime, CLOCK_REALTIME, nullptr); }, EPERM},
      {"adjtimex", [] { return Sys(SYS_adjtimex, nullptr); }, EPERM},
      {"sethostname", [] { return Sys(SYS_sethostname, nullptr, -1); }, EPERM},
      {"setdomainname", [] { return Sys(SYS_setdomainname, nullptr, -1); }, EPERM},
      {"bpf", [] { return Sys(SYS_bpf, 0x7fffffff, nullptr, 0); }, EPERM},
      {"perf_event_open", [] { return Sys(SYS_perf_event_open, nullptr, 0, -1, -1, 0); }, EPERM},
      {"userfaultfd", [] { return Sys(SYS_userfaultfd, ~0u); }, EPERM},
      // An unknown command: EOPNOTSUPP (or ENOSYS).
      {"keyctl", [] { return Sys(SYS_keyctl, 0x7fffffff, 0, 0, 0, 0); }, EPERM, true},
      {"add_key", [] { return Sys(SYS_add_key, nullptr, nullptr, nullptr, 0, 0); }, EPERM},
      {"request_key", [] { return Sys(SYS_request_key, nullptr, nullptr, nullptr, 0); }, EPERM},
      {"lookup_dcookie", [] { return Sys(SYS_lookup_dcookie, 0, nullptr, 0); }, EPERM},
      {"fanotify_init", [] { return Sys(SYS_fanotify_init, ~0u, 0); }, EPERM},
      {"io_uring_setup", [] { return Sys(SYS_io_uring_setup, 0, nullptr); }, EPERM},
      {"io_uring_enter", [] { return Sys(SYS_io_uring_enter, -1, 0, 0, 0, nullptr, 0); }, EPERM},
      {"io_uring_register", [] { return Sys(SYS_io_uring_register, -1, 0, nullptr, 0); }, EPERM},
      // Nothing to copy from oneself: 0.
      {"process_vm_readv",
       [] { return Sys(SYS_process_vm_readv, getpid(), nullptr, 0, nullptr, 0, 0); }, EPERM, true},
      {"process_vm_writev",
       [] { return Sys(SYS_process_vm_writev, getpid(), nullptr, 0, nullptr, 0, 0); }, EPERM,
       true},
      {"open_by_handle_at", [] { return Sys(SYS_open_by_handle_at, -1, nullptr, 0); }, EPERM},
      // Unknown flags: EINVAL before anything else.
      {"name_to_handle_at",
       [] { return Sys(SYS_name_to_handle_at, AT_FDCWD, "", nullptr, nullptr, ~0u); }, EPERM,
       true},
      // Succeeds without the filter (returning the old persona).
      {"personality(ADDR_NO_RANDOMIZE)", [] { return Sys(SYS_personality, ADDR_NO_RANDOMIZE); },
       EPERM, true},
      {"personality(PER_LINUX32)", [] { return Sys(SYS_personality, PER_LINUX32); }, EPERM},
      // Too small for struct clone_args: EINVAL.
      {"clone3", [] { return Sys(SYS_clone3, nullptr, 0); }, ENOSYS, true},
      // shmem always supports fallocate.
      {"fallocate",
       [] {
         const int fd = memfd_create("seccomp_filter_test", MFD_CLOEXEC);
         if (fd < 0) return -2L;
         const long rc = Sys(SYS_fallocate, fd, 0, 0, 1 << 20);
         const int error = errno;
         close(fd);
         errno = error;
         return rc;
       },
       EOPNOTSUPP, true},
      // Without the filter getpid, or ENOSYS where the kernel has no x32.
      {"x32 getpid", [] { return Sys(__X32_SYSCALL_BIT | SYS_getpid); }, EPERM, true},
  };
  for (const auto& [name, flag] : std::vector<std::pair<std::string, unsigned long>>{
           {"CLONE_NEWNS", CLONE_NEWNS},
           {"CLONE_NEWUSER", CLONE_NEWUSER},
           {"CLONE_NEWPID", CLONE_NEWPID},
           {"CLONE_NEWNET", CLONE_NEWNET},
           {"CLONE_NEWUTS", CLONE_NEWUTS},
           {"CLONE_NEWIPC", CLONE_NEWIPC},
           {"CLONE_NEWCGROUP", CLONE_NEWCGROUP},
       }) {
    probes.push_back({absl::StrCat("clone(", name, ")"), [flag] { return CloneWith(flag); }, EPERM});
  }
  // Last: should the filter let it through, the child is traced by the test
  // and must take no signals afterwards.
  probes.push_back({"ptrace(PTRACE_TRACEME)",
                    [] { return Sys(SYS_ptrace, PTRACE_TRACEME, 0, nullptr, nullptr); }, EPERM});
  return probes;
}

// Runs the probes; a line for each that did not fail with its filter_errno
// plus `offset`.
std::string RunProbes(const std::vector<Probe>& probes, int offset) {
  std::string failures;
  for (const Probe& probe : probes) {
    errno = 0;
    const long rc = probe.call();
    const int error = errno;
    const int want = probe.filter_errno + offset;
    if (rc != -1 || error != want) {
      absl::StrAppend(&failures, probe.name, ": returned ", rc, ", errno ", error, " (",
                      strerrorname_np(error) ? strerrorname_np(error) : "?", "); want errno ",
                      want, "\n");
    }
  }
  return failures;
}

struct ChildResult {
  int status = 0;
  std::string output;
};

// Runs `body` in a forked child (a filter cannot be removed again) in a
// session of its own; the child exits 0 if `body` returns "", else 1 after
// writing what it returned to the parent.
ChildResult RunInChild(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {-1, absl::StrCat("pipe: ", strerror(errno))};
  const pid_t pid = fork();
  if (pid < 0) return {-1, absl::StrCat("fork: ", strerror(errno))};
  if (pid == 0) {
    close(fds[0]);
    setsid();
    const std::string output = body();
    for (size_t done = 0; done < output.size();) {
      const ssize_t n = write(fds[1], output.data() + done, output.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    _exit(output.empty() ? 0 : 1);
  }
  close(fds[1]);
  ChildResult result;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof(buffer))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    result.output.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  while (waitpid(pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  return result;
}

std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exit ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return absl::StrCat("signal ", WTERMSIG(status));
  return absl::StrCat("status ", status);
}

void ExpectChildSucceeded(const ChildResult& result) {
  EXPECT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0)
      << DescribeStatus(result.status) << "\n"
      << result.output;
}

std::string Install() {
  const absl::Status status = InstallAgentSeccompFilter();
  return status.ok() ? "" : absl::StrCat("InstallAgentSeccompFilter: ", status.ToString());
}

// AgentSeccompProgram() with kMark added to every errno it returns.
std::string InstallMarked() {
  std::vector<sock_filter> program = AgentSeccompProgram();
  for (sock_filter& insn : program) {
    if (insn.code == (BPF_RET | BPF_K) && (insn.k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO) {
      insn.k = SECCOMP_RET_ERRNO | ((insn.k & SECCOMP_RET_DATA) + kMark);
    }
  }
  sock_fprog fprog = {.len = static_cast<unsigned short>(program.size()), .filter = program.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
    return absl::StrCat("installing the marked program: ", strerror(errno));
  }
  return "";
}

std::string TempDir() {
  const char* dir = getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

bool IsRet(const sock_filter& insn) { return BPF_CLASS(insn.code) == BPF_RET; }

TEST(AgentSeccompProgramTest, IsDeterministicAndWellFormed) {
  const std::vector<sock_filter> program = AgentSeccompProgram();
  const std::vector<sock_filter> again = AgentSeccompProgram();
  ASSERT_FALSE(program.empty());
  ASSERT_LE(program.size(), static_cast<size_t>(BPF_MAXINSNS));
  ASSERT_EQ(program.size(), again.size());
  EXPECT_EQ(std::memcmp(program.data(), again.data(), program.size() * sizeof(sock_filter)), 0);
  EXPECT_TRUE(IsRet(program.back()));
  // The first instructions look at the architecture.
  EXPECT_EQ(program[0].code, BPF_LD | BPF_W | BPF_ABS);
  EXPECT_EQ(program[0].k, offsetof(struct seccomp_data, arch));
  // Every jump lands inside the program (the kernel would refuse it anyway).
  for (size_t pc = 0; pc < program.size(); ++pc) {
    const sock_filter& insn = program[pc];
    if (BPF_CLASS(insn.code) != BPF_JMP) continue;
    if (BPF_OP(insn.code) == BPF_JA) {
      EXPECT_LT(pc + 1 + insn.k, program.size()) << "at " << pc;
    } else {
      EXPECT_LT(pc + 1 + insn.jt, program.size()) << "at " << pc;
      EXPECT_LT(pc + 1 + insn.jf, program.size()) << "at " << pc;
    }
  }
}

// The marked errnos prove that each denial comes from the filter itself.
TEST(AgentSeccompProgramTest, DeniesEveryListedSyscall) {
  ExpectChildSucceeded(RunInChild([] {
    const std::string error = InstallMarked();
    return error.empty() ? RunProbes(DeniedProbes(), kMark) : error;
  }));
}

TEST(InstallAgentSeccompFilterTest, DeniedCallsFailWithTheDocumentedErrno) {
  ExpectChildSucceeded(RunInChild([] {
    const std::string error = Install();
    return error.empty() ? RunProbes(DeniedProbes(), 0) : error;
  }));
}

// Control: without the filter these probes have other outcomes.
TEST(InstallAgentSeccompFilterTest, WithoutTheFilterProbesBehaveOtherwise) {
  ExpectChildSucceeded(RunInChild([] {
    std::string failures;
    for (const Probe& probe : DeniedProbes()) {
      if (!probe.distinct_without_filter) continue;
      errno = 0;
      const long rc = probe.call();
      if (rc == -1 && errno == probe.filter_errno) {
        absl::StrAppend(&failures, probe.name, " fails with errno ", errno, " without the filter\n");
      }
    }
    return failures;
  }));
}

TEST(InstallAgentSeccompFilterTest, AllowedCallsStillWork) {
  const std::string temp_dir = TempDir();
  ExpectChildSucceeded(RunInChild([&temp_dir] {
    std::string error = Install();
    if (!error.empty()) return error;
    std::string failures;
    auto check = [&failures](bool ok, const std::string& what) {
      if (!ok) absl::StrAppend(&failures, what, ": ", strerror(errno), "\n");
    };

    check(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1, "PR_GET_NO_NEW_PRIVS is 1");
    check(getpid() > 0, "getpid");

    const pid_t child = fork();
    if (child == 0) _exit(7);
    int status = 0;
    check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
              WEXITSTATUS(status) == 7,
          "fork + waitpid");

    // glibc tries clone3 first and falls back to clone on ENOSYS.
    std::atomic<bool> ran = false;
    std::thread([&ran] { ran = true; }).join();
    check(ran, "std::thread");

    std::string path = temp_dir + "/seccomp_XXXXXX";
    const int fd = mkstemp(path.data());
    check(fd >= 0, "mkstemp");
    if (fd >= 0) {
      check(write(fd, "hello", 5) == 5, "write");
      char buffer[5] = {};
      check(pread(fd, buffer, 5, 0) == 5 && std::memcmp(buffer, "hello", 5) == 0, "pread");
      // fallocate is denied; posix_fallocate then writes the zeros itself.
      struct stat st;
      check(posix_fallocate(fd, 0, 1 << 16) == 0 && fstat(fd, &st) == 0 && st.st_size == 1 << 16,
            "posix_fallocate");
      close(fd);
      const int again = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      check(again >= 0 && read(again, buffer, 5) == 5, "open + read");
      if (again >= 0) close(again);
      unlink(path.c_str());
    }

    void* memory = mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0);
    check(memory != MAP_FAILED, "mmap");
    if (memory != MAP_FAILED) {
      static_cast<char*>(memory)[12345] = 1;
      munmap(memory, 1 << 20);
    }

    const int socket_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    check(socket_fd >= 0, "socket(AF_UNIX)");
    if (socket_fd >= 0) close(socket_fd);

    const pid_t exec_child = fork();
    if (exec_child == 0) {
      execl("/bin/true", "true", static_cast<char*>(nullptr));
      _exit(127);
    }
    check(exec_child > 0 && waitpid(exec_child, &status, 0) == exec_child && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0,
          "fork + execve(/bin/true)");

    // posix_spawn uses clone(CLONE_VM | CLONE_VFORK) after clone3's ENOSYS.
    char* argv[] = {const_cast<char*>("true"), nullptr};
    pid_t spawned = -1;
    check(posix_spawn(&spawned, "/bin/true", nullptr, nullptr, argv, environ) == 0 &&
              waitpid(spawned, &status, 0) == spawned && WIFEXITED(status) &&
              WEXITSTATUS(status) == 0,
          "posix_spawn(/bin/true)");

    check(personality(0xffffffff) != -1, "personality(0xffffffff)");
    check(personality(PER_LINUX) != -1, "personality(PER_LINUX)");
    return failures;
  }));
}

// The i386 ABI's getpid, through int 0x80 (the kernel then reports
// AUDIT_ARCH_I386 to seccomp).
long I386Getpid() {
  long result;
  asm volatile("int $0x80" : "=a"(result) : "a"(20L) : "memory", "r8", "r9", "r10", "r11");
  return result;
}

TEST(InstallAgentSeccompFilterTest, KillsOtherArchitectures) {
  const ChildResult control = RunInChild([] {
    return I386Getpid() == getpid() ? "" : "no i386 emulation";
  });
  if (!WIFEXITED(control.status) || WEXITSTATUS(control.status) != 0) {
    GTEST_SKIP() << "int 0x80 does not work here: " << DescribeStatus(control.status) << " "
                 << control.output;
  }
  const ChildResult result = RunInChild([] {
    const rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    std::string error = Install();
    if (!error.empty()) return error;
    I386Getpid();
    return std::string("survived int 0x80");
  });
  EXPECT_TRUE(WIFSIGNALED(result.status) && WTERMSIG(result.status) == SIGSYS)
      << DescribeStatus(result.status) << " " << result.output;
}

}  // namespace
}  // namespace mlebench
