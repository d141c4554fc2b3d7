#!/usr/bin/python3
"""An agent that leaves trees meant to break the runner's teardown (for
adversary_test): chains of 200 directories, each within the quota walk's
depth limit, joined with rename into one chain of 20,000 levels (how the
review's agent beat the recursive removal, and Bazel's); a wide directory;
directories without any permission; names with a line break and invalid
UTF-8; a FIFO, a socket, a hard link, and links out of the workspace. It
writes a valid submission first, so that the run is graded as usual."""

import os
import socket


def chain(name, depth):
    """A chain of `depth` directories from `name` in the working directory;
    returns a descriptor of its deepest directory (valid after renames)."""
    fd = os.open(".", os.O_RDONLY)
    for step in range(depth):
        entry = name if step == 0 else "d"
        os.mkdir(entry, dir_fd=fd)
        deeper = os.open(entry, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = deeper
    return fd


with open(os.environ["MLEBENCH_SAMPLE_SUBMISSION"], "rb") as src:
    with open("submission/submission.csv", "wb") as dst:
        dst.write(src.read())
os.chdir("code")
# Each chain stays within the depth the runner's quota walk measures; they
# are joined in one burst at the end, just before the agent exits, so that
# no walk sees the whole.
ends = [chain("c%d" % i, 200) for i in range(100)]
os.makedirs("wide")
for i in range(5000):
    open("wide/f%d" % i, "w").close()
os.makedirs("locked/inner")
open("locked/inner/x", "w").close()
open(b"odd\nname \xff", "w").close()
os.mkfifo("fifo")
socket.socket(socket.AF_UNIX).bind("sock")
os.link("wide/f0", "hardlink")
os.symlink("/", "rootfs")
os.symlink("../..", "up")
for i in range(1, 100):
    os.rename("c%d" % i, "c%d" % i, dst_dir_fd=ends[i - 1])
for end in ends:
    os.close(end)
os.chmod("locked/inner", 0)
os.chmod("locked", 0)
print("deep chain: 20000 levels", flush=True)
