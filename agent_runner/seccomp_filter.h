#ifndef MLEBENCH_AGENT_RUNNER_SECCOMP_FILTER_H_
#define MLEBENCH_AGENT_RUNNER_SECCOMP_FILTER_H_

#include <linux/filter.h>

#include <vector>

#include "absl/status/status.h"

namespace mlebench {

// A seccomp-BPF deny-list for untrusted agent processes (x86-64 only): a
// second line of defence behind bubblewrap's namespaces, taking away the
// kernel interfaces an ML agent never needs and that are the usual way out of
// a sandbox or into the host's state. Everything not listed is allowed, so
// Python, CUDA, compilers and networking keep working.
//
// The filter, in order:
//   - seccomp_data.arch other than AUDIT_ARCH_X86_64 (the i386 `int 0x80`
//     ABI, whose syscall numbers differ and would bypass the list):
//     SECCOMP_RET_KILL_PROCESS.
//   - A syscall number with the x32 bit (__X32_SYSCALL_BIT) set: EPERM (the
//     x32 ABI is another set of numbers for the same calls).
//   - EPERM for:
//       mounts and the root: mount, umount2, pivot_root, chroot, move_mount,
//         open_tree, fsopen, fsconfig, fsmount, fspick, mount_setattr;
//       namespaces: unshare, setns (and see clone below);
//       the machine: swapon, swapoff, reboot, kexec_load, kexec_file_load,
//         init_module, finit_module, delete_module, acct, quotactl, iopl,
//         ioperm, vhangup, syslog, uselib;
//       the clock and names: settimeofday, clock_settime, clock_adjtime,
//         adjtimex, sethostname, setdomainname;
//       kernel attack surface that agents have no use for: bpf,
//         perf_event_open, userfaultfd, keyctl, add_key, request_key,
//         lookup_dcookie, fanotify_init, io_uring_setup, io_uring_enter,
//         io_uring_register (io_uring also runs syscalls the filter never
//         sees);
//       other processes and files by handle: ptrace, process_vm_readv,
//         process_vm_writev, open_by_handle_at, name_to_handle_at;
//       personality, unless its argument is 0xffffffff (a query) or 0
//         (PER_LINUX): other personas turn off ASLR or change the ABI.
//   - clone with any of CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID,
//     CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC or CLONE_NEWCGROUP in its
//     flags (the low 32 bits of argument 0): EPERM. fork(), threads and vfork
//     are unaffected. (CLONE_NEWTIME, 0x80, is not checked: in clone's flags
//     that bit belongs to the exit signal, and a new time namespace can only
//     come from unshare or clone3, both denied.)
//   - clone3: ENOSYS. Its flags are in memory, which BPF cannot read; on
//     ENOSYS glibc (and other runtimes) fall back to clone, checked above.
//   - fallocate: EOPNOTSUPP, so that disk space cannot be reserved at once
//     (posix_fallocate then falls back to writing zeros, at disk speed).
//   - anything else: SECCOMP_RET_ALLOW.
// Whether a call is allowed depends only on its number except for clone and
// personality, so the kernel (5.11+) caches the verdict for all others and
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
