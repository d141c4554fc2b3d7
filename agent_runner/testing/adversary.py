#!/usr/bin/python3
"""A hostile agent for the sandbox's own tests: it tries every way out that an
attacker's review of the runner found (and more of the same kinds), reports
each attempt as one line

    attack <name>: blocked <how>        or        attack <name>: ESCAPED <what>

and then writes a valid submission, so that the run is still graded.

Attempts that would change the host if they worked only probe: they open for
writing and close again, they never write, so a regression cannot damage the
machine that runs the test. Arguments: the paths of planted secrets the
sandbox must hide (the test passes them), and `--bombs` to also try the
memory and process bombs (only under small limits).
"""

import errno
import os
import socket
import struct
import subprocess
import sys

results = []


def report(name, escaped, detail):
    results.append((name, escaped))
    print("attack %s: %s %s" % (name, "ESCAPED" if escaped else "blocked", detail), flush=True)


def try_open_for_writing(name, path):
    """Opens `path` for writing without writing; success is an escape."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as e:
        report(name, False, "(%s: %s)" % (path, errno.errorcode.get(e.errno, e.errno)))
        return
    os.close(fd)
    report(name, True, "%s is writable" % path)


def try_read(name, path):
    try:
        with open(path, "rb") as f:
            data = f.read(64)
    except OSError as e:
        report(name, False, "(%s: %s)" % (path, errno.errorcode.get(e.errno, e.errno)))
        return
    report(name, True, "read %r from %s" % (data[:20], path))


def status_field(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    return ""


# 1. Host root: never uid 0, not even inside a user namespace (the test checks
# the host's view: who owns the files the agent made), and no capabilities.
report("host-root", os.getuid() == 0 or os.geteuid() == 0,
       "(uid %d, euid %d)" % (os.getuid(), os.geteuid()))
for key in ("CapEff", "CapPrm", "CapBnd", "CapAmb", "CapInh"):
    value = status_field(key)
    report("capabilities-" + key, int(value, 16) != 0, "(%s %s)" % (key, value))
report("no-new-privs", status_field("NoNewPrivs") != "1",
       "(NoNewPrivs %s)" % status_field("NoNewPrivs"))
report("seccomp", status_field("Seccomp") != "2", "(Seccomp %s)" % status_field("Seccomp"))
try:
    os.setuid(0)
    report("setuid-0", True, "setuid(0) worked")
except OSError as e:
    report("setuid-0", False, "(%s)" % errno.errorcode.get(e.errno))

# Global kernel knobs and their kin: probed for writing only.
for name, path in [
        ("core-pattern", "/proc/sys/kernel/core_pattern"),
        ("modprobe", "/proc/sys/kernel/modprobe"),
        ("hotplug", "/proc/sys/kernel/hotplug"),
        ("drop-caches", "/proc/sys/vm/drop_caches"),
        ("hostname-knob", "/proc/sys/kernel/hostname"),
        ("sysrq", "/proc/sysrq-trigger"),
        ("uevent-helper", "/sys/kernel/uevent_helper"),
        ("cgroup-release-agent", "/sys/fs/cgroup/memory/release_agent"),
        ("cgroup-v2-procs", "/sys/fs/cgroup/unified/cgroup.procs"),
        ("kmsg", "/dev/kmsg"),
]:
    if os.path.lexists(path):
        try_open_for_writing(name, path)
    else:
        print("attack %s: absent (%s does not exist here)" % (name, path), flush=True)

# Namespaces, mounts, ptrace, bpf: what the seccomp filter and the missing
# capabilities refuse.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)


def syscall_outcome(rc):
    return "(%s)" % errno.errorcode.get(ctypes.get_errno(), rc)


for flag_name, flag in [("user", 0x10000000), ("mount", 0x00020000), ("net", 0x40000000)]:
    rc = libc.unshare(flag)
    report("unshare-" + flag_name, rc == 0, syscall_outcome(rc))
rc = libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)
report("mount", rc == 0, syscall_outcome(rc))
rc = libc.ptrace(0, 0, None, None)  # PTRACE_TRACEME
report("ptrace", rc == 0, syscall_outcome(rc))
rc = libc.syscall(321, 0, None, 0)  # bpf(BPF_MAP_CREATE, NULL, 0)
report("bpf", rc >= 0, syscall_outcome(rc))
rc = libc.syscall(425, 1, None)  # io_uring_setup(1, NULL)
report("io-uring", rc >= 0, syscall_outcome(rc))

# 3-4. Secrets by path, and through symlink tricks in the workspace.
secrets = [a for a in sys.argv[1:] if a not in ("--", "--bombs")]
# The memory and process bombs only on request (the test sets small limits
# first): under the default limits (80% of RAM) a bomb would load the host.
limits = "--bombs" in sys.argv[1:]
for i, secret in enumerate(secrets):
    try_read("secret-%d" % i, secret)
    os.makedirs("code/links", exist_ok=True)
    link = "code/links/secret-%d" % i
    try:
        os.symlink(secret, link)
    except FileExistsError:
        pass
    try_read("secret-%d-via-symlink" % i, link)
# Anything that carries the planted secrets' marker, anywhere in the sandbox.
found = []
for top, dirs, files in os.walk("/"):
    if top == "/":
        dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr")]
    for f in files:
        path = os.path.join(top, f)
        try:
            if os.path.islink(path) or os.path.getsize(path) > (1 << 20):
                continue
            with open(path, "rb") as handle:
                if b"MLEBENCH-" + b"SECRET" in handle.read():
                    found.append(path)
        except OSError:
            pass
report("search-for-secrets", bool(found), "(found %s)" % found)
try_read("etc-shadow", "/etc/shadow")
# pid 1 is the sandbox's init (bwrap). Run by an unprivileged runner, it is
# the agent's own user without any capability: touching it gains nothing.
# Otherwise (a root runner) it must be out of reach.
with open("/proc/1/status") as f:
    init = dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
init_uid = int(init["Uid"].split()[0])
if init_uid == os.getuid():
    # Its memory is within the agent's reach (/proc/1/mem): taking it over
    # must gain nothing, so pid 1 must have no capability and the same
    # seccomp filter (the review ran an unfiltered shell as pid 1).
    weaker = (int(init["CapEff"], 16) == 0 and int(init["CapBnd"], 16) == 0 and
              init.get("Seccomp", "").strip() == "2" and init.get("NoNewPrivs", "").strip() == "1")
    report("proc-1", not weaker, "(pid 1: CapEff %s, Seccomp %s, NoNewPrivs %s)" % (
        init["CapEff"].strip(), init.get("Seccomp", "?").strip(), init.get("NoNewPrivs", "?").strip()))
else:
    try_open_for_writing("proc-1-mem", "/proc/1/mem")
    try_read("proc-1-environ", "/proc/1/environ")

# 6. submission/ replaced by a symlink to a host directory is tried by the
# test (it needs a host path); here: the submission as an absolute symlink.

# 9. Network: the host's loopback, the Bazel server's port, abstract sockets.
for name, family, address in [("tcp-loopback", socket.AF_INET, ("127.0.0.1", 22)),
                              ("tcp6-loopback", socket.AF_INET6, ("::1", 22))]:
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(1)
    try:
        s.connect(address)
        report(name, True, "connected to %s" % (address,))
    except OSError as e:
        # ECONNREFUSED from our own empty loopback is fine: nothing listens
        # in the sandbox's network namespace.
        report(name, False, "(%s)" % errno.errorcode.get(e.errno, e))
    finally:
        s.close()
listener_port = None
try:
    with open("data/host_port.txt") as f:
        listener_port = f.read().strip()
except OSError:
    pass
if listener_port:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(1)
    try:
        s.connect(("127.0.0.1", int(listener_port)))
        report("host-listener", True, "connected to the host's 127.0.0.1:%s" % listener_port)
    except OSError as e:
        report("host-listener", False, "(%s)" % errno.errorcode.get(e.errno, e))
    finally:
        s.close()
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(b"\0mlebench-adversary-" + listener_port.encode())
        report("abstract-socket", True, "connected to the host's abstract socket")
    except OSError as e:
        report("abstract-socket", False, "(%s)" % errno.errorcode.get(e.errno, e))
    finally:
        s.close()
try:
    socket.getaddrinfo("example.com", 80)
    report("dns", True, "resolved example.com")
except OSError as e:
    report("dns", False, "(%s)" % e)

# Socket families that network namespaces do not confine (vsock reaches the
# hypervisor of a virtual machine) or that reach kernel subsystems an agent
# has no use for: refused by the seccomp filter before they exist.
for name, family, kind, protocol in [
        ("vsock", getattr(socket, "AF_VSOCK", 40), socket.SOCK_STREAM, 0),
        ("packet", getattr(socket, "AF_PACKET", 17), socket.SOCK_RAW, 0),
        ("alg", getattr(socket, "AF_ALG", 38), socket.SOCK_SEQPACKET, 0),
        ("bluetooth", 31, socket.SOCK_STREAM, 0),
        ("netlink-audit", socket.AF_NETLINK, socket.SOCK_RAW, 9),
        ("netlink-uevent", socket.AF_NETLINK, socket.SOCK_RAW, 15)]:
    try:
        s = socket.socket(family, kind, protocol)
    except OSError as e:
        report("socket-" + name, False, "(%s)" % errno.errorcode.get(e.errno, e))
        continue
    try:
        if name == "vsock":
            # VMADDR_CID_ANY, VMADDR_PORT_ANY: what the review did.
            s.bind((0xFFFFFFFF, 0xFFFFFFFF))
            report("socket-" + name, True, "bound an AF_VSOCK socket")
        else:
            report("socket-" + name, True, "made a socket of family %d" % family)
    except OSError as e:
        report("socket-" + name, True, "made a socket of family %d (bind: %s)" % (family, e))
    finally:
        s.close()
# Calls newer than the filter's first list, and others an agent never makes:
# the allow-list answers ENOSYS before the kernel sees them.
for name, nr in [("open_tree_attr", 467), ("listmount", 458), ("statmount", 457),
                 ("file_getattr", 468), ("lsm_list_modules", 461), ("kcmp", 312),
                 ("syscall-1000", 1000)]:
    rc = libc.syscall(nr, -1, None, 0, 0, 0)
    error = ctypes.get_errno()
    report("syscall-" + name if not name.startswith("syscall") else name,
           rc >= 0 or error != errno.ENOSYS, "(%s)" % errno.errorcode.get(error, rc))

# data/ is read-only whoever owns it: no new file, no change of mode, no
# rename, no change of a file in it.
for name, attempt in [
        ("data-new-file", lambda: open("data/planted.txt", "w").close()),
        ("data-chmod", lambda: os.chmod("data", 0o777)),
        ("data-rename", lambda: os.rename("data", "code/data-moved")),
        ("data-overwrite", lambda: open(os.environ["MLEBENCH_SAMPLE_SUBMISSION"], "a").close()),
        ("data-remove", lambda: os.unlink(os.environ["MLEBENCH_SAMPLE_SUBMISSION"]))]:
    try:
        attempt()
        report(name, True, "worked")
    except OSError as e:
        report(name, False, "(%s)" % errno.errorcode.get(e.errno, e))

# /dev/shm is the sandbox's own (POSIX semaphores for multiprocessing): usable,
# and nothing in it of the host's.
try:
    import multiprocessing
    lock = multiprocessing.Lock()
    with lock:
        pass
    host_files = os.listdir("/dev/shm")
    report("dev-shm", bool(host_files), "(a private /dev/shm, multiprocessing.Lock works%s)" % (
        "; host files: %s" % host_files if host_files else ""))
except OSError as e:
    report("dev-shm", True, "multiprocessing.Lock failed: %s" % e)

# 7-8. Disk and memory amplification, process bombs: bounded by the runner.
try:
    fd = os.open("code/huge.bin", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.posix_fallocate(fd, 0, 8 << 20)
        report("fallocate", False, "(posix_fallocate fell back to writing; bounded by the quota)")
    except OSError as e:
        report("fallocate", False, "(%s)" % errno.errorcode.get(e.errno, e))
    # The file size limit: finite, not raisable, and enforced (a one-byte
    # write at the limit makes a sparse file, so this costs no disk space).
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        report("file-size-limit", True, "RLIMIT_FSIZE could be raised")
    except (OSError, ValueError):
        if hard == resource.RLIM_INFINITY:
            report("file-size-limit", True, "no RLIMIT_FSIZE")
        else:
            try:
                os.ftruncate(fd, 0)
                os.lseek(fd, hard, os.SEEK_SET)
                os.write(fd, b"x")
                report("file-size-limit", True, "wrote past RLIMIT_FSIZE (%d)" % hard)
            except OSError as e:
                report("file-size-limit", False, "(RLIMIT_FSIZE %d: %s)" % (
                    hard, errno.errorcode.get(e.errno, e)))
    os.close(fd)
    os.unlink("code/huge.bin")
except OSError as e:
    report("fallocate", False, "(%s)" % e)
children = []
if not limits:
    print("attack process-limit: skipped (no --bombs)", flush=True)
    print("attack memory-limit: skipped (no --bombs)", flush=True)
try:
    for _ in range(200 if limits else 0):
        children.append(subprocess.Popen(["/bin/sleep", "30"]))
    if limits:
        report("process-limit", True, "started %d processes" % len(children))
except OSError as e:
    report("process-limit", False, "(after %d processes: %s)" % (len(children), e))
for child in children:
    child.kill()
    child.wait()
try:
    pid = os.fork() if limits else -1
    if pid == -1:
        raise StopIteration
    if pid == 0:
        hog = []
        try:
            while True:
                hog.append(b"x" * (16 << 20))
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == 9
    report("memory-limit", not killed, "(memory hog %s)" % (
        "killed by SIGKILL" if killed else "status %d" % status))
except StopIteration:
    pass
except OSError as e:
    report("memory-limit", False, "(%s)" % e)

# 10. Log truncation: reopen stdout with O_TRUNC, which must reach a pipe.
try:
    fd = os.open("/dev/stdout", os.O_WRONLY | os.O_TRUNC)
    kind = os.fstat(fd).st_mode
    import stat
    report("log-truncation", not stat.S_ISFIFO(kind), "(/dev/stdout is %s)" % (
        "a pipe" if stat.S_ISFIFO(kind) else "a file"))
    os.close(fd)
except OSError as e:
    report("log-truncation", False, "(%s)" % e)

# The run is still graded: a valid submission.
with open(os.environ["MLEBENCH_SAMPLE_SUBMISSION"], "rb") as src:
    with open("submission/submission.csv", "wb") as dst:
        dst.write(src.read())
escaped = [name for name, bad in results if bad]
print("adversary: %d attempts, %d escaped%s" % (
    len(results), len(escaped), (": " + " ".join(escaped)) if escaped else ""), flush=True)
