#ifndef MLEBENCH_AGENT_RUNNER_SECCOMP_FILTER_H_
#define MLEBENCH_AGENT_RUNNER_SECCOMP_FILTER_H_

#include <linux/filter.h>

#include <vector>

#include "absl/status/status.h"

namespace mlebench {

// A seccomp-BPF allow-list for untrusted agent processes (x86-64 only): a
// second line of defence behind bubblewrap's namespaces. Default deny, as
// Docker's default profile and Chromium's sandbox are: a system call is
// allowed only when it is listed, so calls of kernels newer than the list
// (open_tree_attr, listmount, statmount, file_getattr, ...) never reach the
// kernel from an agent.
//
// The filter, in order:
//   - seccomp_data.arch other than AUDIT_ARCH_X86_64 (the i386 `int 0x80`
//     ABI, whose syscall numbers differ and would bypass the list):
//     SECCOMP_RET_KILL_PROCESS.
//   - A syscall number with the x32 bit (__X32_SYSCALL_BIT) set: EPERM (the
//     x32 ABI is another set of numbers for the same calls).
//   - Calls whose arguments are checked (only an int argument's low 32 bits,
//     which are all the kernel reads):
//       ioctl: any request but TIOCSTI and TIOCLINUX (pushing input into a
//         terminal), which get EPERM;
//       socket: AF_UNIX, AF_INET, AF_INET6, and AF_NETLINK with protocol
//         NETLINK_ROUTE (glibc's getaddrinfo with AI_ADDRCONFIG, `ip`); other
//         netlink protocols get EPROTONOSUPPORT, every other family
//         (AF_VSOCK, which network namespaces do not confine and which
//         reaches the hypervisor; AF_PACKET, AF_ALG, AF_BLUETOOTH, ...)
//         EAFNOSUPPORT;
//       socketpair: AF_UNIX only, else EAFNOSUPPORT;
//       clone: EPERM with any of CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID,
//         CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC or CLONE_NEWCGROUP in its
//         flags (fork(), threads and vfork are unaffected; CLONE_NEWTIME,
//         0x80, is clone's exit-signal byte, and a time namespace can only
//         come from unshare or clone3);
//       personality: only 0xffffffff (a query) and 0 (PER_LINUX); other
//         personas (which turn off ASLR or change the ABI) get EPERM.
//   - clone3: ENOSYS. Its flags are in memory, which BPF cannot read; on
//     ENOSYS (and only then) glibc falls back to clone, checked above.
//   - fallocate: EOPNOTSUPP, so that disk space cannot be reserved at once
//     (posix_fallocate then falls back to writing zeros, at disk speed,
//     within the workspace quota).
//   - EPERM for the usual ways out of a sandbox or into the host's state,
//     refused by name: mounts and the root (mount, umount2, pivot_root,
//     chroot, the new mount API), namespaces (unshare, setns), the machine
//     (swap, reboot, kexec, modules, acct, quotactl, iopl, ioperm, vhangup,
//     syslog, uselib), the clock and names (settimeofday, clock_settime,
//     clock_adjtime, adjtimex, sethostname, setdomainname), kernel attack
//     surface (bpf, perf_event_open, userfaultfd, the keyring, lookup_dcookie,
//     fanotify_init, io_uring, whose submissions the filter would never see),
//     other processes and files by handle (ptrace, process_vm_readv,
//     process_vm_writev, open_by_handle_at, name_to_handle_at).
//   - SECCOMP_RET_ALLOW for the calls of kAllowed in seccomp_filter.cc: files
//     and directories, descriptors, event loops, memory, processes and
//     threads, scheduling, signals and timers, sockets once made, System V
//     IPC and message queues - what Python, numpy, pandas, scikit-learn
//     (joblib's threads and processes), lightgbm, torch, shells, compilers
//     and git use (checked with strace, and by seccomp_python_stack_test).
//   - anything else: ENOSYS, the answer of a kernel without the call, which
//     callers that probe for new calls (faccessat2, statx, clone3, ...)
//     fall back from; EPERM would break them.
// The runner has bwrap install this program on the sandbox's init too
// (--seccomp), which the agent could otherwise take over unfiltered, and the
// sandbox entry installs it again before it becomes the agent.
// Whether a call is allowed depends only on its number except for the five
// checked above, so the kernel (5.11+) caches the verdict for all others and
// the filter costs them nothing after the first call.

// The filter as a classic BPF program, for seccomp(SECCOMP_SET_MODE_FILTER).
// Deterministic: the same instructions on every call.
std::vector<struct sock_filter> AgentSeccompProgram();

// Sets PR_SET_NO_NEW_PRIVS and installs AgentSeccompProgram() on the calling
// thread (threads started later inherit it; existing ones do not, so call it
// before starting any). It cannot be removed, also not across execve. Does
// not allocate unless it fails (the program is a constant), so it can be
// called between fork and exec. Errors when either prctl fails (e.g. a kernel
// without seccomp filters), in which case no filter is installed.
absl::Status InstallAgentSeccompFilter();

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_SECCOMP_FILTER_H_
