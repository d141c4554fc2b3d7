#!/usr/bin/env python3
"""Writes the manifest of an agent's root file system (agent_runner/rootfs.h).

    rootfs_manifest.py ROOTFS > ROOTFS.manifest

One line per entry of the trees the sandbox binds (usr, bin, sbin, lib*, etc,
opt), sorted by path: TYPE, MODE, SIZE, DETAIL (a file's SHA-256, a link's
target, "-" for a directory) and PATH, tab-separated. Nothing is followed.
A socket, FIFO or device node, or a name or link target holding a tab or a
newline, is an error (exit 1): the manifest must stand for the whole tree.
Standard library only.
"""

import hashlib
import os
import stat
import sys

ENTRIES = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt"]


def fail(message):
    sys.stderr.write("rootfs_manifest: %s\n" % message)
    sys.exit(1)


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest().encode()


def main():
    if len(sys.argv) != 2:
        fail("usage: rootfs_manifest.py ROOTFS")
    root = os.fsencode(sys.argv[1])
    lines = []
    pending = [name.encode() for name in ENTRIES]
    while pending:
        relative = pending.pop()
        if b"\t" in relative or b"\n" in relative:
            fail("a name holds a tab or a newline: %r" % relative)
        path = os.path.join(root, relative)
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            if b"/" not in relative:
                continue
            raise
        mode = b"%04o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISDIR(st.st_mode):
            lines.append((relative, b"d", mode, b"0", b"-"))
            pending.extend(relative + b"/" + name for name in os.listdir(path))
        elif stat.S_ISREG(st.st_mode):
            lines.append((relative, b"f", mode, b"%d" % st.st_size, sha256(path)))
        elif stat.S_ISLNK(st.st_mode):
            target = os.readlink(path)
            if b"\t" in target or b"\n" in target:
                fail("a link target holds a tab or a newline: %r" % relative)
            lines.append((relative, b"l", mode, b"0", target))
        else:
            fail("%r is a socket, FIFO or device node" % relative)
    lines.sort()
    out = sys.stdout.buffer
    out.write(b"# mlebench rootfs manifest 1: type, mode, size, sha256 or target, path\n")
    for relative, kind, mode, size, detail in lines:
        out.write(b"\t".join([kind, mode, size, detail, relative]) + b"\n")


if __name__ == "__main__":
    main()
