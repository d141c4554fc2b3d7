#include "agent_runner/seccomp_filter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <vector>

#include "absl/status/status.h"
#include "agent_runner/internal/syscall_numbers.h"

namespace mlebench {
namespace {

// The system calls an agent may make, whatever their arguments (those whose
// arguments are checked come in blocks of their own below). Chosen from
// Docker's default profile (its calls allowed without a capability), less
// what an agent never needs and that widens the kernel's attack surface,
// checked against strace of pandas, scikit-learn (joblib threads and loky
// processes), lightgbm (OpenMP), torch (DataLoader workers), multiprocessing,
// shells, git, compilers, pip and local sockets.
constexpr uint32_t kAllowed[] = {
    // Files and directories.
    SYS_read, SYS_write, SYS_open, SYS_openat, SYS_openat2, SYS_creat, SYS_close,
    SYS_close_range, SYS_lseek, SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev, SYS_preadv,
    SYS_pwritev, SYS_preadv2, SYS_pwritev2, SYS_stat, SYS_fstat, SYS_lstat, SYS_newfstatat,
    SYS_statx, SYS_statfs, SYS_fstatfs, SYS_access, SYS_faccessat, SYS_faccessat2, SYS_getdents,
    SYS_getdents64, SYS_getcwd, SYS_chdir, SYS_fchdir, SYS_mkdir, SYS_mkdirat, SYS_rmdir,
    SYS_rename, SYS_renameat, SYS_renameat2, SYS_link, SYS_linkat, SYS_symlink, SYS_symlinkat,
    SYS_unlink, SYS_unlinkat, SYS_readlink, SYS_readlinkat, SYS_mknod, SYS_mknodat, SYS_chmod,
    SYS_fchmod, SYS_fchmodat, SYS_fchmodat2, SYS_chown, SYS_fchown, SYS_lchown, SYS_fchownat,
    SYS_umask, SYS_truncate, SYS_ftruncate, SYS_fsync, SYS_fdatasync, SYS_sync, SYS_syncfs,
    SYS_sync_file_range, SYS_fadvise64, SYS_readahead, SYS_flock, SYS_utime, SYS_utimes,
    SYS_futimesat, SYS_utimensat, SYS_copy_file_range, SYS_sendfile, SYS_splice, SYS_tee,
    SYS_vmsplice, SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr, SYS_getxattr, SYS_lgetxattr,
    SYS_fgetxattr, SYS_listxattr, SYS_llistxattr, SYS_flistxattr, SYS_removexattr,
    SYS_lremovexattr, SYS_fremovexattr, SYS_setxattrat, SYS_getxattrat, SYS_listxattrat,
    SYS_removexattrat, SYS_inotify_init, SYS_inotify_init1, SYS_inotify_add_watch,
    SYS_inotify_rm_watch, SYS_cachestat,
    // Descriptors, pipes and event loops.
    SYS_dup, SYS_dup2, SYS_dup3, SYS_fcntl, SYS_pipe, SYS_pipe2, SYS_select, SYS_pselect6,
    SYS_poll, SYS_ppoll, SYS_epoll_create, SYS_epoll_create1, SYS_epoll_ctl, SYS_epoll_wait,
    SYS_epoll_pwait, SYS_epoll_pwait2, SYS_eventfd, SYS_eventfd2, SYS_signalfd, SYS_signalfd4,
    SYS_timerfd_create, SYS_timerfd_settime, SYS_timerfd_gettime, SYS_memfd_create,
    // Memory.
    SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect, SYS_madvise, SYS_msync, SYS_mincore,
    SYS_mlock, SYS_mlock2, SYS_munlock, SYS_mlockall, SYS_munlockall, SYS_membarrier,
    SYS_pkey_alloc, SYS_pkey_free, SYS_pkey_mprotect, SYS_mseal, SYS_map_shadow_stack,
    // Processes, threads and their ids; credentials can only be dropped (no
    // capabilities, no_new_privs).
    SYS_fork, SYS_vfork, SYS_execve, SYS_execveat, SYS_exit, SYS_exit_group, SYS_wait4,
    SYS_waitid, SYS_set_tid_address, SYS_set_robust_list, SYS_get_robust_list, SYS_futex,
    SYS_futex_waitv, SYS_futex_wake, SYS_futex_wait, SYS_futex_requeue, SYS_rseq,
    SYS_arch_prctl, SYS_get_thread_area, SYS_set_thread_area, SYS_prctl, SYS_seccomp,
    SYS_landlock_create_ruleset, SYS_landlock_add_rule, SYS_landlock_restrict_self, SYS_getpid,
    SYS_getppid, SYS_gettid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_getgroups,
    SYS_getresuid, SYS_getresgid, SYS_setuid, SYS_setgid, SYS_setreuid, SYS_setregid,
    SYS_setresuid, SYS_setresgid, SYS_setfsuid, SYS_setfsgid, SYS_setgroups, SYS_capget,
    SYS_capset, SYS_getpgid, SYS_getpgrp, SYS_setpgid, SYS_getsid, SYS_setsid,
    SYS_getrlimit, SYS_setrlimit, SYS_prlimit64, SYS_getrusage, SYS_times, SYS_sysinfo,
    SYS_uname, SYS_getrandom, SYS_process_mrelease,
    // Scheduling (real-time priorities need a capability the agent lacks).
    SYS_sched_yield, SYS_sched_getaffinity, SYS_sched_setaffinity, SYS_sched_getparam,
    SYS_sched_setparam, SYS_sched_getscheduler, SYS_sched_setscheduler, SYS_sched_getattr,
    SYS_sched_setattr, SYS_sched_get_priority_max, SYS_sched_get_priority_min,
    SYS_sched_rr_get_interval, SYS_getcpu, SYS_getpriority, SYS_setpriority, SYS_ioprio_get,
    SYS_ioprio_set,
    // Signals and timers (within the sandbox's pid namespace).
    SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigpending,
    SYS_rt_sigtimedwait, SYS_rt_sigsuspend, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo,
    SYS_sigaltstack, SYS_kill, SYS_tkill, SYS_tgkill, SYS_pidfd_open, SYS_pidfd_send_signal,
    SYS_restart_syscall, SYS_pause, SYS_alarm, SYS_getitimer, SYS_setitimer, SYS_timer_create,
    SYS_timer_settime, SYS_timer_gettime, SYS_timer_getoverrun, SYS_timer_delete,
    SYS_nanosleep, SYS_clock_nanosleep, SYS_clock_gettime, SYS_clock_getres, SYS_gettimeofday,
    SYS_time,
    // Sockets, once created (socket and socketpair have blocks of their own).
    SYS_bind, SYS_listen, SYS_accept, SYS_accept4, SYS_connect, SYS_shutdown, SYS_getsockname,
    SYS_getpeername, SYS_getsockopt, SYS_setsockopt, SYS_sendto, SYS_recvfrom, SYS_sendmsg,
    SYS_recvmsg, SYS_sendmmsg, SYS_recvmmsg,
    // System V IPC and POSIX message queues (the sandbox's IPC namespace).
    SYS_shmget, SYS_shmat, SYS_shmdt, SYS_shmctl, SYS_semget, SYS_semop, SYS_semtimedop,
    SYS_semctl, SYS_msgget, SYS_msgsnd, SYS_msgrcv, SYS_msgctl, SYS_mq_open, SYS_mq_unlink,
    SYS_mq_timedsend, SYS_mq_timedreceive, SYS_mq_notify, SYS_mq_getsetattr,
};

// Calls that get EPERM whatever their arguments: the usual ways out of a
// sandbox or into the host's state, refused by name so that the error says
// "not permitted" rather than "not implemented" (see the header).
constexpr uint32_t kDenied[] = {
    SYS_mount,           SYS_umount2,           SYS_pivot_root,
    SYS_chroot,          SYS_move_mount,        SYS_open_tree,
    SYS_fsopen,          SYS_fsconfig,          SYS_fsmount,
    SYS_fspick,          SYS_mount_setattr,     SYS_unshare,
    SYS_setns,           SYS_swapon,            SYS_swapoff,
    SYS_reboot,          SYS_kexec_load,        SYS_kexec_file_load,
    SYS_init_module,     SYS_finit_module,      SYS_delete_module,
    SYS_acct,            SYS_quotactl,          SYS_iopl,
    SYS_ioperm,          SYS_vhangup,           SYS_syslog,
    SYS_uselib,          SYS_settimeofday,      SYS_clock_settime,
    SYS_clock_adjtime,   SYS_adjtimex,          SYS_sethostname,
    SYS_setdomainname,   SYS_bpf,               SYS_perf_event_open,
    SYS_userfaultfd,     SYS_keyctl,            SYS_add_key,
    SYS_request_key,     SYS_lookup_dcookie,    SYS_fanotify_init,
    SYS_io_uring_setup,  SYS_io_uring_enter,    SYS_io_uring_register,
    SYS_ptrace,          SYS_process_vm_readv,  SYS_process_vm_writev,
    SYS_open_by_handle_at, SYS_name_to_handle_at,
};

// Not CLONE_NEWTIME: clone's low byte (CSIGNAL) is the exit signal.
constexpr uint32_t kNamespaceFlags = CLONE_NEWNS | CLONE_NEWUSER |
                                     CLONE_NEWPID | CLONE_NEWNET |
                                     CLONE_NEWUTS | CLONE_NEWIPC |
                                     CLONE_NEWCGROUP;

// personality's query argument, and PER_LINUX.
constexpr uint32_t kPersonalityQuery = 0xffffffff;
constexpr uint32_t kPersonalityLinux = 0;

constexpr uint32_t Errno(int error) {
  return SECCOMP_RET_ERRNO | (static_cast<uint32_t>(error) & SECCOMP_RET_DATA);
}

// x86-64 is little-endian: an argument's low 32 bits come first. Only they
// are compared, as the kernel reads only them for int arguments (comparing
// the high word too is how a filter gets bypassed: CVE-2019-10063).
constexpr uint32_t kNrOffset = offsetof(struct seccomp_data, nr);
constexpr uint32_t kArchOffset = offsetof(struct seccomp_data, arch);
constexpr uint32_t ArgLowOffset(int arg) {
  return static_cast<uint32_t>(offsetof(struct seccomp_data, args) + 8 * arg);
}

// Every part of the program is straight-line, with forward jumps of at most
// 11 instructions, so the 8-bit jt/jf offsets never overflow.
constexpr size_t kProgramSize = 6                          // arch and x32
                                + 6                        // ioctl
                                + 12                       // socket
                                + 5                        // socketpair
                                + 5                        // clone
                                + 6                        // personality
                                + 2 + 2                    // clone3, fallocate
                                + 2 * std::size(kDenied)   // JEQ; RET pairs
                                + 2 * std::size(kAllowed)  // JEQ; RET pairs
                                + 1;                       // RET ENOSYS
static_assert(kProgramSize <= BPF_MAXINSNS);

struct Program {
  std::array<sock_filter, kProgramSize> insns{};
  size_t size = 0;

  constexpr void Stmt(uint16_t code, uint32_t k) {
    insns[size++] = sock_filter{code, 0, 0, k};
  }
  constexpr void Jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) {
    insns[size++] = sock_filter{code, jt, jf, k};
  }
  // Leaves the accumulator as it was.
  constexpr void ReturnIfNr(uint32_t nr, uint32_t action) {
    Jump(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
    Stmt(BPF_RET | BPF_K, action);
  }
  constexpr void LoadArg(int arg) { Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLowOffset(arg)); }
};

constexpr Program BuildProgram() {
  Program p;
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, kArchOffset);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  // From here on the accumulator holds nr, until a block returns.
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, kNrOffset);
  p.Jump(BPF_JMP | BPF_JSET | BPF_K, __X32_SYSCALL_BIT, 0, 1);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));

  // The calls whose arguments are checked come first: the kernel cannot
  // cache their verdict, so they are found after few comparisons.
  // ioctl(fd, request): no TIOCSTI or TIOCLINUX (typing into a terminal).
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 5);
  p.LoadArg(1);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0);
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));

  // socket(domain, type, protocol): AF_UNIX, AF_INET, AF_INET6, and
  // AF_NETLINK for NETLINK_ROUTE only (getaddrinfo's AI_ADDRCONFIG, ip).
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 11);
  p.LoadArg(0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 4, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 3, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 2, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 2, 0);
  p.Stmt(BPF_RET | BPF_K, Errno(EAFNOSUPPORT));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  p.LoadArg(2);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, NETLINK_ROUTE, 0, 1);
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  p.Stmt(BPF_RET | BPF_K, Errno(EPROTONOSUPPORT));

  // socketpair(domain, ...): AF_UNIX only.
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 0, 4);
  p.LoadArg(0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1);
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  p.Stmt(BPF_RET | BPF_K, Errno(EAFNOSUPPORT));

  // clone(flags, ...): the flags' namespace bits are all in the low word.
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
  p.LoadArg(0);
  p.Jump(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 1);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  // personality(unsigned int persona): the kernel reads only the low word.
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_personality, 0, 5);
  p.LoadArg(0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, kPersonalityQuery, 2, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, kPersonalityLinux, 1, 0);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  p.ReturnIfNr(SYS_clone3, Errno(ENOSYS));
  p.ReturnIfNr(SYS_fallocate, Errno(EOPNOTSUPP));
  for (uint32_t nr : kDenied) p.ReturnIfNr(nr, Errno(EPERM));
  for (uint32_t nr : kAllowed) p.ReturnIfNr(nr, SECCOMP_RET_ALLOW);
  // Anything else, the calls of kernels newer than this list among them.
  p.Stmt(BPF_RET | BPF_K, Errno(ENOSYS));
  return p;
}

// A constant, so that installing it needs no allocation.
constexpr Program kProgram = BuildProgram();
static_assert(kProgram.size == kProgramSize);

}  // namespace

std::vector<struct sock_filter> AgentSeccompProgram() {
  return std::vector<struct sock_filter>(kProgram.insns.begin(),
                                         kProgram.insns.end());
}

absl::Status InstallAgentSeccompFilter() {
  // Without it an unprivileged process may not install a filter, and a
  // set-user-ID program could still gain privileges the filter cannot see.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return absl::ErrnoToStatus(errno, "prctl(PR_SET_NO_NEW_PRIVS)");
  }
  // The kernel copies the program and never writes to it.
  struct sock_fprog fprog = {
      .len = static_cast<unsigned short>(kProgram.insns.size()),
      .filter = const_cast<struct sock_filter*>(kProgram.insns.data()),
  };
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
    return absl::ErrnoToStatus(errno,
                               "prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER)");
  }
  return absl::OkStatus();
}

}  // namespace mlebench
