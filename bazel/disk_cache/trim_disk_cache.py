#!/usr/bin/python3
"""Keeps Bazel's disk cache within a size and the disk it is on from filling.

Bazel 4.2.3 never removes anything from a `--disk_cache` directory: every
compile, every prepared data set and every test result stays, and a machine
that builds several checkouts fills its disk (it did here: a CI run died of
"No space left on device" with the cache at 34 GB). ./bazelw runs this before
Bazel starts:

    trim_disk_cache.py --bazelrc .bazelrc --bazelrc user.bazelrc \
        --max-bytes N --min-free-bytes M [--interval S]

The cache is the directory the last `build --disk_cache=DIR` line of the rc
files names (none, or an empty DIR: nothing to do); CACHE_DIR instead of the
rc files names it directly.

It removes the least recently used entries (by the later of a file's access
and modification time) until the cache holds at most 90% of N bytes and the
file system has at least M bytes free, as far as removing cache entries can
achieve that; nothing outside CACHE_DIR/ac and CACHE_DIR/cas is touched.

Removing entries is always safe for a build: an action whose result is gone
is a cache miss and runs again; an action result whose output blob is gone
is a miss too (Bazel checks that every blob it needs is there before taking a
result). Access times are kept by the file system at most once a day
(`relatime`), so "least recently used" is exact to a day, which is what an
LRU over builds needs.

The walk over the cache (a stat of every entry, about a second per 200,000)
runs at most once per `--interval` seconds (default 3600), stamped by
CACHE_DIR/.mlebench-trimmed, unless the disk is short of M bytes free: that
is checked on every call (one statvfs). Concurrent calls are serialised by a
lock file; a call that finds the lock held goes on without trimming.

Exit status 0 whether or not anything was removed; 2 for bad arguments. It
prints one line to stderr when it removed something.
"""

import argparse
import fcntl
import os
import sys
import time

_STAMP = ".mlebench-trimmed"
_LOCK = ".mlebench-trim.lock"
# Removal goes below the cap, so that the next build's new entries do not
# start another walk at once.
_LOW_WATER = 0.9


def _free_bytes(path):
    stats = os.statvfs(path)
    return stats.f_bavail * stats.f_frsize


def _entries(cache_dir):
    """(last use, size, path) of every file under ac/ and cas/."""
    found = []
    for top in ("ac", "cas"):
        root = os.path.join(cache_dir, top)
        if not os.path.isdir(root):
            continue
        stack = [root]
        while stack:
            directory = stack.pop()
            try:
                with os.scandir(directory) as listing:
                    for entry in listing:
                        try:
                            if entry.is_dir(follow_symlinks=False):
                                stack.append(entry.path)
                            elif entry.is_file(follow_symlinks=False):
                                st = entry.stat(follow_symlinks=False)
                                found.append((max(st.st_atime, st.st_mtime),
                                              st.st_blocks * 512, entry.path))
                        except FileNotFoundError:
                            pass  # removed by a concurrent trim or by hand
            except FileNotFoundError:
                pass
    return found


def trim(cache_dir, max_bytes, min_free_bytes, interval, now=None, free_bytes=_free_bytes):
    """Trims CACHE_DIR; returns (removed files, removed bytes, cache bytes after),
    or None when it did not walk the cache (recently trimmed, lock held, or no
    cache). FREE_BYTES(path) says how much the disk has free (a test's own)."""
    now = time.time() if now is None else now
    if not os.path.isdir(cache_dir):
        return None
    stamp = os.path.join(cache_dir, _STAMP)
    short_of_space = free_bytes(cache_dir) < min_free_bytes
    try:
        recent = now - os.stat(stamp).st_mtime < interval
    except FileNotFoundError:
        recent = False
    if recent and not short_of_space:
        return None
    with open(os.path.join(cache_dir, _LOCK), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return None
        entries = _entries(cache_dir)
        total = sum(size for _, size, _ in entries)
        deficit = max(0, min_free_bytes - free_bytes(cache_dir))
        target = min(int(max_bytes * _LOW_WATER) if total > max_bytes else total,
                     total - deficit)
        removed_files = removed_bytes = 0
        if total > target:
            entries.sort()
            for _, size, path in entries:
                if total - removed_bytes <= target:
                    break
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    continue
                removed_files += 1
                removed_bytes += size
        with open(stamp, "w"):
            pass
        os.utime(stamp, (now, now))
        return removed_files, removed_bytes, total - removed_bytes


def disk_cache_of(rc_files):
    """The directory of the last `build --disk_cache=` line of RC_FILES (absent
    files skipped), `~` expanded; "" when none names one or the last is empty.
    Only unconditional `build` lines count: `build:remote` is a config."""
    found = ""
    for rc in rc_files:
        try:
            with open(rc, encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    words = line.split()
                    if len(words) >= 2 and words[0] == "build":
                        for word in words[1:]:
                            if word.startswith("--disk_cache="):
                                found = word[len("--disk_cache="):]
        except FileNotFoundError:
            continue
    return os.path.expanduser(found) if found else ""


def _parse_size(text):
    """Bytes from '24G', '512M', '100k' or a plain number of bytes."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}
    text = text.strip().lower().removesuffix("ib").removesuffix("b")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cache_dir", nargs="?")
    parser.add_argument("--bazelrc", action="append", default=[])
    parser.add_argument("--max-bytes", required=True, type=_parse_size)
    parser.add_argument("--min-free-bytes", required=True, type=_parse_size)
    parser.add_argument("--interval", type=float, default=3600)
    args = parser.parse_args(argv)
    if args.cache_dir is None:
        args.cache_dir = disk_cache_of(args.bazelrc)
    if not args.cache_dir:
        return 0
    result = trim(args.cache_dir, args.max_bytes, args.min_free_bytes, args.interval)
    if result and result[0]:
        files, size, left = result
        print(f"bazelw: removed the {files} least recently used entries "
              f"({size / 2**30:.1f} GiB) from the disk cache {args.cache_dir}, "
              f"{left / 2**30:.1f} GiB left (MLEBENCH_DISK_CACHE_MAX, "
              f"MLEBENCH_DISK_MIN_FREE; docs/performance.md, \"The disk cache's size\")",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
