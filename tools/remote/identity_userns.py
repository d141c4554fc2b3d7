#!/usr/bin/python3 -I
"""Runs a command in a new user namespace that maps uids and gids 0-65535 to
themselves (what `unshare --map-users=0,0,65536` does, without newuidmap).

    identity_userns.py COMMAND [ARG...]

The command keeps its uid, and a root caller stays root for the files it
owns, but its capabilities hold only inside the namespace. Only root can map
more than its own uid, so only root can run this.
"""
import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000
RANGE = 65536


def main() -> int:
    if len(sys.argv) < 2:
        sys.exit("usage: identity_userns.py COMMAND [ARG...]")
    if os.geteuid() != 0:
        sys.exit("identity_userns.py: must run as root (it maps uids 0-65535)")
    libc = ctypes.CDLL(None, use_errno=True)
    ready_r, ready_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        os.close(go_w)
        if libc.unshare(CLONE_NEWUSER) != 0:
            err = ctypes.get_errno()
            sys.stderr.write("identity_userns.py: unshare(CLONE_NEWUSER): %s\n" % os.strerror(err))
            os._exit(126)
        os.write(ready_w, b"1")
        if os.read(go_r, 1) != b"1":
            os._exit(126)
        os.execvp(sys.argv[1], sys.argv[1:])
    os.close(ready_w)
    os.close(go_r)
    if os.read(ready_r, 1) == b"1":
        for name in ("uid_map", "gid_map"):
            with open("/proc/%d/%s" % (pid, name), "w") as f:
                f.write("0 0 %d\n" % RANGE)
        os.write(go_w, b"1")
    os.close(go_w)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) & 0xFF


if __name__ == "__main__":
    sys.exit(main())
