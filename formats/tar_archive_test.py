"""Writes tar archives for tar_archive_test with Python's tarfile, and lists ours.

Usage: tar_archive_test.py write DIR  |  tar_archive_test.py list ARCHIVE
"""

import io
import sys
import tarfile
from pathlib import Path


def add(tar, name, data=b"x"):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


if sys.argv[1] == "write":
    out = Path(sys.argv[2])
    with tarfile.open(out / "flat.tar.gz", "w:gz") as tar:
        add(tar, "Sample00300.zip")
        add(tar, "Sample00123.zip")
        add(tar, "./notes.txt")
    with tarfile.open(out / "nested.tar", "w") as tar:
        add(tar, "dir/Sample00001.zip")
        add(tar, "dir/sub/b.zip")
        add(tar, "top.zip", b"")
    with tarfile.open(out / "unsafe.tar.gz", "w:gz") as tar:
        add(tar, "../evil.zip")
else:
    with tarfile.open(sys.argv[2]) as tar:
        for m in tar.getmembers():
            print(m.name, m.size, m.mtime, m.uid, m.gid, oct(m.mode), tar.extractfile(m).read().decode())
