#include "agent_runner/seccomp_filter.h"

#if !defined(__x86_64__)
#error "agent_runner/seccomp_filter.cc knows only x86-64's syscall numbers"
#endif

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <array>
#include <cstddef>
#include <iterator>
#include <vector>

#include "absl/status/status.h"

// Fallbacks for older headers; the numbers are x86-64's and never change.
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000U
#endif
#ifndef __X32_SYSCALL_BIT
#define __X32_SYSCALL_BIT 0x40000000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef SYS_kexec_file_load
#define SYS_kexec_file_load 320
#endif
#ifndef SYS_userfaultfd
#define SYS_userfaultfd 323
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter 426
#endif
#ifndef SYS_io_uring_register
#define SYS_io_uring_register 427
#endif
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_fspick
#define SYS_fspick 433
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif

namespace mlebench {
namespace {

// Calls that get EPERM whatever their arguments (see the header for why).
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

// x86-64 is little-endian: an argument's low 32 bits come first.
constexpr uint32_t kNrOffset = offsetof(struct seccomp_data, nr);
constexpr uint32_t kArchOffset = offsetof(struct seccomp_data, arch);
constexpr uint32_t kArg0LowOffset = offsetof(struct seccomp_data, args[0]);

// Every part of the program is straight-line, with forward jumps of at most 5
// instructions, so the 8-bit jt/jf offsets never overflow.
constexpr size_t kProgramSize = 6                         // arch and x32
                                + 2 * std::size(kDenied)  // JEQ; RET pairs
                                + 5                       // clone
                                + 6                       // personality
                                + 2 + 2                   // clone3, fallocate
                                + 1;                      // RET ALLOW
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

  for (uint32_t nr : kDenied) p.ReturnIfNr(nr, Errno(EPERM));

  // clone(flags, ...): the flags' namespace bits are all in the low word.
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, kArg0LowOffset);
  p.Jump(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 1);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  // personality(unsigned int persona): the kernel reads only the low word.
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_personality, 0, 5);
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, kArg0LowOffset);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, kPersonalityQuery, 2, 0);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, kPersonalityLinux, 1, 0);
  p.Stmt(BPF_RET | BPF_K, Errno(EPERM));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  p.ReturnIfNr(SYS_clone3, Errno(ENOSYS));
  p.ReturnIfNr(SYS_fallocate, Errno(EOPNOTSUPP));
  p.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
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
