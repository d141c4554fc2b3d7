#!/usr/bin/python3 -I
"""Runs a command in a new user namespace whose uids and gids 0-65535 are the
host's BASE to BASE+65535 (what newuidmap does with a subordinate range).

    slot_userns.py BASE COMMAND [ARG...]

Root inside is an ordinary user outside: its capabilities hold only in the
namespace, over what that namespace owns (its mounts, its network), and the
kernel checks every host file, sysctl and cgroup against the unprivileged
host uid BASE - never against host root, which is not mapped at all. Only
root can set up such a mapping, so only root can run this.
"""
import ctypes
import fcntl
import os
import sys

CLONE_NEWUSER = 0x10000000
RANGE = 65536
LOCK_DIR = "/run/mlebench-slots/locks"


def main() -> int:
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit("usage: slot_userns.py BASE COMMAND [ARG...]")
    base = int(sys.argv[1])
    if base < RANGE or base + RANGE > 2**32 - 2:
        sys.exit("slot_userns.py: BASE must leave host root and the host's own users unmapped "
                 "(>= 65536) and fit in 32 bits")
    if os.geteuid() != 0:
        sys.exit("slot_userns.py: must run as root (it maps a range of uids)")
    # No two running slots with one range, whichever cluster they belong to
    # (cluster.sh derives a slot's base from its port modulo 256: clusters
    # whose ports are equal modulo 256 would otherwise share uids, and each
    # could write the other's delegated cgroups).
    # Held by this process, which waits for the namespace's to end; not
    # inherited by the command (Python's descriptors are close-on-exec).
    os.makedirs(LOCK_DIR, mode=0o755, exist_ok=True)
    lock = os.open(os.path.join(LOCK_DIR, "%d.lock" % base), os.O_RDONLY | os.O_CREAT, 0o644)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit("slot_userns.py: uids %d-%d are a running slot's already (another cluster "
                 "whose port is equal modulo 256?): set MLEBENCH_CLUSTER_PORT or "
                 "MLEBENCH_SLOT_UID_BASE" % (base, base + RANGE - 1))
    libc = ctypes.CDLL(None, use_errno=True)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        os.close(go_w)
        # No supplementary group of the host's (root's group 0 would still
        # count for the kernel's checks inside).
        os.setgroups([])
        if libc.unshare(CLONE_NEWUSER) != 0:
            err = ctypes.get_errno()
            sys.stderr.write("slot_userns.py: unshare(CLONE_NEWUSER): %s\n" % os.strerror(err))
            os._exit(126)
        os.write(ready_w, b"1")
        if os.read(go_r, 1) != b"1":
            os._exit(126)
        # Root of the namespace, with its capabilities there.
        os.setresgid(0, 0, 0)
        os.setresuid(0, 0, 0)
        os.execvp(sys.argv[2], sys.argv[2:])
    os.close(ready_w)
    os.close(go_r)
    if os.read(ready_r, 1) == b"1":
        # setgroups stays allowed (the agent runner's sandbox drops its
        # groups): written by root, the maps need no "deny".
        for name in ("uid_map", "gid_map"):
            with open("/proc/%d/%s" % (pid, name), "w") as f:
                f.write("0 %d %d\n" % (base, RANGE))
        os.write(go_w, b"1")
    os.close(go_w)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) & 0xFF


if __name__ == "__main__":
    sys.exit(main())
