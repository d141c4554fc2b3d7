#include "agent_runner/seccomp_filter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
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
#include <sys/ioctl.h>
#include <sys/random.h>
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
#include <map>
#include <string>
#include <tuple>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent_runner/internal/syscall_numbers.h"
#include "gtest/gtest.h"

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
    probes.push_back({absl::StrCat("clone(", name, ")"), [flag = flag] { return CloneWith(flag); }, EPERM});
  }
  // Socket families an agent never needs; AF_VSOCK is not confined by the
  // network namespace and reaches the hypervisor. Without the filter these
  // make a socket (or fail otherwise): EAFNOSUPPORT is the filter's.
  for (const auto& [name, family, protocol] : std::vector<std::tuple<std::string, int, int>>{
           {"AF_VSOCK", AF_VSOCK, 0},
           {"AF_PACKET", AF_PACKET, 0},
           {"AF_ALG", AF_ALG, 0},
           {"AF_BLUETOOTH", AF_BLUETOOTH, 0},
           {"AF_KEY", AF_KEY, 0},
           {"AF_XDP", AF_XDP, 0},
           {"AF_CAN", AF_CAN, 0},
           {"AF_TIPC", AF_TIPC, 0},
           // The high word is not part of the family: the kernel reads an int.
           {"AF_VSOCK | 1 << 32", static_cast<int>(AF_VSOCK), 1 << 16},
       }) {
    probes.push_back({absl::StrCat("socket(", name, ")"),
                      [family = family, high = protocol == (1 << 16)] {
                        const long rc =
                            Sys(SYS_socket, (high ? (1L << 32) : 0) | family, SOCK_STREAM, 0);
                        if (rc >= 0) close(static_cast<int>(rc));
                        return rc;
                      },
                      EAFNOSUPPORT});
  }
  probes.push_back({"socket(AF_NETLINK, NETLINK_AUDIT)",
                    [] {
                      const long rc = Sys(SYS_socket, AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
                      if (rc >= 0) close(static_cast<int>(rc));
                      return rc;
                    },
                    EPROTONOSUPPORT, true});
  probes.push_back({"socketpair(AF_INET)",
                    [] {
                      int fds[2];
                      return Sys(SYS_socketpair, AF_INET, SOCK_STREAM, 0, fds);
                    },
                    EAFNOSUPPORT});
  // Typing into a terminal, whatever the high word of the request says.
  for (const auto& [name, request] : std::vector<std::pair<std::string, unsigned long>>{
           {"TIOCSTI", TIOCSTI},
           {"TIOCSTI | 1 << 32", TIOCSTI | (1UL << 32)},
           {"TIOCLINUX", TIOCLINUX}}) {
    probes.push_back({absl::StrCat("ioctl(", name, ")"),
                      [request = request] {
                        char c = 'x';
                        return Sys(SYS_ioctl, 0, request, &c);
                      },
                      EPERM});
  }
  // Calls the list does not name: ENOSYS, as from a kernel without them.
  // Newer than the filter's first version (6.8-6.19), NUMA policy, and a
  // number no kernel has yet.
  for (const auto& [name, nr] : std::vector<std::pair<std::string, long>>{
           {"statmount", 457},
           {"listmount", 458},
           {"lsm_get_self_attr", 459},
           {"lsm_list_modules", 461},
           {"open_tree_attr", 467},
           {"file_getattr", 468},
           {"file_setattr", 469},
           {"listns", 470},
           {"syscall 1000", 1000},
           {"mbind", SYS_mbind},
           {"set_mempolicy", SYS_set_mempolicy},
           {"kcmp", SYS_kcmp},
           {"modify_ldt", SYS_modify_ldt},
           {"memfd_secret", 447},
           // Linux AIO: fs.aio-max-nr is one count for the whole host.
           {"io_setup", SYS_io_setup},
           {"io_submit", SYS_io_submit},
       }) {
    probes.push_back({name, [nr = nr] { return Sys(nr, -1, nullptr, 0, 0, 0, 0); }, ENOSYS});
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

    for (const auto& [name, family, type, protocol] :
         std::vector<std::tuple<std::string, int, int, int>>{
             {"socket(AF_UNIX)", AF_UNIX, SOCK_STREAM, 0},
             {"socket(AF_INET)", AF_INET, SOCK_DGRAM, 0},
             {"socket(AF_INET6)", AF_INET6, SOCK_STREAM, 0},
             {"socket(AF_NETLINK, NETLINK_ROUTE)", AF_NETLINK, SOCK_RAW, NETLINK_ROUTE}}) {
      const int socket_fd = socket(family, type | SOCK_CLOEXEC, protocol);
      // A host without IPv6 may refuse AF_INET6, but never as the filter does.
      check(socket_fd >= 0 || (family == AF_INET6 && errno != EAFNOSUPPORT), name);
      if (socket_fd >= 0) close(socket_fd);
    }
    int pair[2];
    check(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0, "socketpair(AF_UNIX)");
    if (pair[0] >= 0) {
      int on = 1;
      check(ioctl(pair[0], FIONBIO, &on) == 0, "ioctl(FIONBIO)");
      close(pair[0]);
      close(pair[1]);
    }
    struct statx stx;
    check(statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx) == 0, "statx");
    check(Sys(SYS_faccessat2, AT_FDCWD, "/", R_OK, AT_EACCESS) == 0, "faccessat2");
    check(getrandom(&stx, 8, 0) == 8, "getrandom");

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

// The program run on `data` the way the kernel runs it (the instructions
// the program uses; anything else fails the test).
uint32_t Evaluate(const std::vector<sock_filter>& program, const seccomp_data& data) {
  uint32_t a = 0;
  for (size_t pc = 0; pc < program.size();) {
    const sock_filter& insn = program[pc];
    switch (insn.code) {
      case BPF_LD | BPF_W | BPF_ABS:
        EXPECT_LE(insn.k + 4, sizeof(data)) << "load at " << pc;
        std::memcpy(&a, reinterpret_cast<const char*>(&data) + insn.k, 4);
        ++pc;
        break;
      case BPF_JMP | BPF_JEQ | BPF_K:
        pc += 1 + (a == insn.k ? insn.jt : insn.jf);
        break;
      case BPF_JMP | BPF_JSET | BPF_K:
        pc += 1 + ((a & insn.k) != 0 ? insn.jt : insn.jf);
        break;
      case BPF_RET | BPF_K:
        return insn.k;
      default:
        ADD_FAILURE() << "unexpected instruction " << insn.code << " at " << pc;
        return 0;
    }
  }
  ADD_FAILURE() << "fell off the end of the program";
  return 0;
}

// The policy, call by call: every number from 0 to 1023 (with zero
// arguments) gets exactly the verdict the header promises. A change of the
// list is a change of this test.
TEST(AgentSeccompProgramTest, AllowsExactlyTheListedCalls) {
#define S(name) {#name, SYS_##name}
  const std::map<std::string, long> allowed = {
    S(accept), S(accept4), S(access), S(alarm), S(arch_prctl), S(bind), S(brk), S(cachestat),
    S(capget), S(capset), S(chdir), S(chmod), S(chown), S(clock_getres), S(clock_gettime),
    S(clock_nanosleep), S(close), S(close_range), S(connect), S(copy_file_range), S(creat),
    S(dup), S(dup2), S(dup3), S(epoll_create), S(epoll_create1), S(epoll_ctl), S(epoll_pwait),
    S(epoll_pwait2), S(epoll_wait), S(eventfd), S(eventfd2), S(execve), S(execveat), S(exit),
    S(exit_group), S(faccessat), S(faccessat2), S(fadvise64), S(fchdir), S(fchmod), S(fchmodat),
    S(fchmodat2), S(fchown), S(fchownat), S(fcntl), S(fdatasync), S(fgetxattr), S(flistxattr),
    S(flock), S(fork), S(fremovexattr), S(fsetxattr), S(fstat), S(fstatfs), S(fsync),
    S(ftruncate), S(futex), S(futex_requeue), S(futex_wait), S(futex_waitv), S(futex_wake),
    S(futimesat), S(get_robust_list), S(get_thread_area), S(getcpu), S(getcwd), S(getdents),
    S(getdents64), S(getegid), S(geteuid), S(getgid), S(getgroups), S(getitimer), S(getpeername),
    S(getpgid), S(getpgrp), S(getpid), S(getppid), S(getpriority), S(getrandom), S(getresgid),
    S(getresuid), S(getrlimit), S(getrusage), S(getsid), S(getsockname), S(getsockopt),
    S(gettid), S(gettimeofday), S(getuid), S(getxattr), S(getxattrat), S(inotify_add_watch),
    S(inotify_init), S(inotify_init1), S(inotify_rm_watch), S(ioprio_get), S(ioprio_set),
    S(kill), S(landlock_add_rule), S(landlock_create_ruleset), S(landlock_restrict_self),
    S(lchown), S(lgetxattr), S(link), S(linkat), S(listen), S(listxattr), S(listxattrat),
    S(llistxattr), S(lremovexattr), S(lseek), S(lsetxattr), S(lstat), S(madvise),
    S(map_shadow_stack), S(membarrier), S(memfd_create), S(mincore), S(mkdir), S(mkdirat),
    S(mknod), S(mknodat), S(mlock), S(mlock2), S(mlockall), S(mmap), S(mprotect),
    S(mq_getsetattr), S(mq_notify), S(mq_open), S(mq_timedreceive), S(mq_timedsend),
    S(mq_unlink), S(mremap), S(mseal), S(msgctl), S(msgget), S(msgrcv), S(msgsnd), S(msync),
    S(munlock), S(munlockall), S(munmap), S(nanosleep), S(newfstatat), S(open), S(openat),
    S(openat2), S(pause), S(pidfd_open), S(pidfd_send_signal), S(pipe), S(pipe2), S(pkey_alloc),
    S(pkey_free), S(pkey_mprotect), S(poll), S(ppoll), S(prctl), S(pread64), S(preadv),
    S(preadv2), S(prlimit64), S(process_mrelease), S(pselect6), S(pwrite64), S(pwritev),
    S(pwritev2), S(read), S(readahead), S(readlink), S(readlinkat), S(readv), S(recvfrom),
    S(recvmmsg), S(recvmsg), S(removexattr), S(removexattrat), S(rename), S(renameat),
    S(renameat2), S(restart_syscall), S(rmdir), S(rseq), S(rt_sigaction), S(rt_sigpending),
    S(rt_sigprocmask), S(rt_sigqueueinfo), S(rt_sigreturn), S(rt_sigsuspend), S(rt_sigtimedwait),
    S(rt_tgsigqueueinfo), S(sched_get_priority_max), S(sched_get_priority_min),
    S(sched_getaffinity), S(sched_getattr), S(sched_getparam), S(sched_getscheduler),
    S(sched_rr_get_interval), S(sched_setaffinity), S(sched_setattr), S(sched_setparam),
    S(sched_setscheduler), S(sched_yield), S(seccomp), S(select), S(semctl), S(semget), S(semop),
    S(semtimedop), S(sendfile), S(sendmmsg), S(sendmsg), S(sendto), S(set_robust_list),
    S(set_thread_area), S(set_tid_address), S(setfsgid), S(setfsuid), S(setgid), S(setgroups),
    S(setitimer), S(setpgid), S(setpriority), S(setregid), S(setresgid), S(setresuid),
    S(setreuid), S(setrlimit), S(setsid), S(setsockopt), S(setuid), S(setxattr), S(setxattrat),
    S(shmat), S(shmctl), S(shmdt), S(shmget), S(shutdown), S(sigaltstack), S(signalfd),
    S(signalfd4), S(splice), S(stat), S(statfs), S(statx), S(symlink), S(symlinkat), S(sync),
    S(sync_file_range), S(syncfs), S(sysinfo), S(tee), S(tgkill), S(time), S(timer_create),
    S(timer_delete), S(timer_getoverrun), S(timer_gettime), S(timer_settime), S(timerfd_create),
    S(timerfd_gettime), S(timerfd_settime), S(times), S(tkill), S(truncate), S(umask), S(uname),
    S(unlink), S(unlinkat), S(utime), S(utimensat), S(utimes), S(vfork), S(vmsplice), S(wait4),
    S(waitid), S(write), S(writev),
      // Checked by argument, allowed with these (zero) arguments.
      S(ioctl), S(clone), S(personality)};
  const std::map<std::string, long> denied = {
      S(mount), S(umount2), S(pivot_root), S(chroot), S(move_mount), S(open_tree), S(fsopen),
      S(fsconfig), S(fsmount), S(fspick), S(mount_setattr), S(unshare), S(setns), S(swapon),
      S(swapoff), S(reboot), S(kexec_load), S(kexec_file_load), S(init_module), S(finit_module),
      S(delete_module), S(acct), S(quotactl), S(iopl), S(ioperm), S(vhangup), S(syslog), S(uselib),
      S(settimeofday), S(clock_settime), S(clock_adjtime), S(adjtimex), S(sethostname),
      S(setdomainname), S(bpf), S(perf_event_open), S(userfaultfd), S(keyctl), S(add_key),
      S(request_key), S(lookup_dcookie), S(fanotify_init), S(io_uring_setup), S(io_uring_enter),
      S(io_uring_register), S(ptrace), S(process_vm_readv), S(process_vm_writev),
      S(open_by_handle_at), S(name_to_handle_at)};
#undef S
  std::map<long, uint32_t> expected;
  for (const auto& [name, nr] : allowed) expected[nr] = SECCOMP_RET_ALLOW;
  for (const auto& [name, nr] : denied) {
    EXPECT_FALSE(expected.contains(nr)) << name << " both allowed and denied";
    expected[nr] = SECCOMP_RET_ERRNO | EPERM;
  }
  expected[SYS_clone3] = SECCOMP_RET_ERRNO | ENOSYS;
  expected[SYS_fallocate] = SECCOMP_RET_ERRNO | EOPNOTSUPP;
  // AF_UNSPEC: not a family an agent gets.
  expected[SYS_socket] = SECCOMP_RET_ERRNO | EAFNOSUPPORT;
  expected[SYS_socketpair] = SECCOMP_RET_ERRNO | EAFNOSUPPORT;
  const std::vector<sock_filter> program = AgentSeccompProgram();
  int checked = 0;
  for (long nr = 0; nr < 1024; ++nr) {
    seccomp_data data = {};
    data.nr = static_cast<int>(nr);
    data.arch = AUDIT_ARCH_X86_64;
    const auto it = expected.find(nr);
    const uint32_t want = it != expected.end() ? it->second : SECCOMP_RET_ERRNO | ENOSYS;
    EXPECT_EQ(Evaluate(program, data), want) << "syscall " << nr;
    // The x32 numbers of the same calls, and other architectures.
    data.nr = static_cast<int>(nr | __X32_SYSCALL_BIT);
    EXPECT_EQ(Evaluate(program, data), SECCOMP_RET_ERRNO | EPERM) << "x32 syscall " << nr;
    data.nr = static_cast<int>(nr);
    data.arch = AUDIT_ARCH_I386;
    EXPECT_EQ(Evaluate(program, data), SECCOMP_RET_KILL_PROCESS) << "i386 syscall " << nr;
    ++checked;
  }
  EXPECT_EQ(checked, 1024);
  EXPECT_EQ(allowed.size(), 284u);
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
