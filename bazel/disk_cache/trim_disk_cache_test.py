#!/usr/bin/python3
"""Tests of trim_disk_cache.py: which entries go, which stay, and when it walks."""

import fcntl
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trim_disk_cache  # noqa: E402

KIB = 1024
DAY = 86400.0
NOW = 2_000_000_000.0


class TrimTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.cache = os.path.join(self.dir, "cache")

    def entry(self, kind, name, kib, last_use):
        """A cache file of KIB KiB last used LAST_USE seconds before NOW."""
        path = os.path.join(self.cache, kind, name[:2], name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(os.urandom(kib * KIB))  # real blocks, not a sparse file
        os.utime(path, (NOW - last_use, NOW - last_use))
        return path

    def test_over_the_cap_the_least_recently_used_go_first(self):
        old = [self.entry("cas", f"a{i}", 64, 30 * DAY + i) for i in range(10)]
        new = [self.entry("ac", f"b{i}", 64, i) for i in range(10)]
        # 20 x 64 KiB = 1,280 KiB held; cap 1,000 KiB -> at most 900 KiB left.
        files, removed, left = trim_disk_cache.trim(self.cache, 1000 * KIB, 0, 3600, now=NOW)
        self.assertLessEqual(left, 900 * KIB)
        self.assertEqual(files, 6)  # 1,280 - 6 x 64 = 896 KiB
        self.assertEqual(removed, 6 * 64 * KIB)
        # The oldest six (largest age first) went; every recent one stayed.
        gone = [p for p in old + new if not os.path.exists(p)]
        self.assertEqual(sorted(gone), sorted(old[4:]))

    def test_the_later_of_access_and_modification_counts(self):
        read_lately = self.entry("cas", "read", 64, 40 * DAY)
        os.utime(read_lately, (NOW - 1, NOW - 40 * DAY))  # atime new, mtime old
        written_lately = self.entry("cas", "writ", 64, 40 * DAY)
        os.utime(written_lately, (NOW - 40 * DAY, NOW - 1))
        stale = self.entry("cas", "stal", 64, 20 * DAY)
        trim_disk_cache.trim(self.cache, 150 * KIB, 0, 3600, now=NOW)
        self.assertTrue(os.path.exists(read_lately))
        self.assertTrue(os.path.exists(written_lately))
        self.assertFalse(os.path.exists(stale))

    def test_under_the_cap_with_room_on_disk_nothing_goes(self):
        paths = [self.entry("cas", f"c{i}", 16, i * DAY) for i in range(5)]
        files, removed, left = trim_disk_cache.trim(self.cache, 1 << 30, 0, 3600, now=NOW)
        self.assertEqual((files, removed), (0, 0))
        self.assertEqual(left, 5 * 16 * KIB)
        self.assertTrue(all(os.path.exists(p) for p in paths))

    def test_a_recent_trim_saves_the_walk(self):
        paths = [self.entry("cas", f"d{i}", 64, i * DAY) for i in range(4)]
        self.assertIsNotNone(trim_disk_cache.trim(self.cache, 1 << 30, 0, 3600, now=NOW))
        # Within the hour, even over the cap: not walked.
        self.assertIsNone(trim_disk_cache.trim(self.cache, 100 * KIB, 0, 3600, now=NOW + 60))
        self.assertTrue(all(os.path.exists(p) for p in paths))
        # After it: walked and trimmed.
        files, _, _ = trim_disk_cache.trim(self.cache, 100 * KIB, 0, 3600, now=NOW + 3601)
        self.assertEqual(files, 3)

    def test_a_disk_short_of_space_is_trimmed_even_under_the_cap_and_at_once(self):
        paths = [self.entry("cas", f"e{i}", 256, (10 - i) * DAY) for i in range(8)]
        trim_disk_cache.trim(self.cache, 1 << 40, 0, 3600, now=NOW)  # stamps it
        # The disk has 400 KiB free and 1 MiB is asked for: three 256 KiB
        # entries must go, the oldest ones, although the stamp is fresh.
        def disk(_):
            return 400 * KIB
        files, removed, _ = trim_disk_cache.trim(self.cache, 1 << 40, 1024 * KIB, 3600,
                                                 now=NOW + 1, free_bytes=disk)
        self.assertEqual((files, removed), (3, 3 * 256 * KIB))
        self.assertEqual([os.path.exists(p) for p in paths], [False] * 3 + [True] * 5)
        # Enough free: the fresh stamp saves the walk again.
        self.assertIsNone(trim_disk_cache.trim(self.cache, 1 << 40, 1024 * KIB, 3600,
                                               now=NOW + 2, free_bytes=lambda _: 2048 * KIB))

    def test_only_ac_and_cas_are_touched(self):
        other = os.path.join(self.cache, "notes.txt")
        os.makedirs(self.cache, exist_ok=True)
        with open(other, "wb") as f:
            f.write(b"x" * 100 * KIB)
        os.utime(other, (NOW - 99 * DAY, NOW - 99 * DAY))
        self.entry("cas", "f0", 64, 0)
        trim_disk_cache.trim(self.cache, 1, 0, 3600, now=NOW)
        self.assertTrue(os.path.exists(other))

    def test_a_concurrent_trim_is_not_waited_for(self):
        path = self.entry("cas", "g0", 64, 0)
        with open(os.path.join(self.cache, ".mlebench-trim.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.assertIsNone(trim_disk_cache.trim(self.cache, 1, 0, 3600, now=NOW))
        self.assertTrue(os.path.exists(path))

    def test_no_cache_directory_is_nothing_to_do(self):
        self.assertIsNone(trim_disk_cache.trim(self.cache, 1, 0, 3600, now=NOW))


class RcTest(unittest.TestCase):
    def rc(self, text):
        fd, path = tempfile.mkstemp(dir=os.environ.get("TEST_TMPDIR"))
        with os.fdopen(fd, "w") as f:
            f.write(text)
        return path

    def test_the_last_unconditional_build_line_wins_and_tilde_expands(self):
        project = self.rc("build --disk_cache=~/.cache/x\nbuild:remote --disk_cache=\n")
        self.assertEqual(trim_disk_cache.disk_cache_of([project]),
                         os.path.expanduser("~/.cache/x"))
        user = self.rc("# mine\nbuild --jobs=2 --disk_cache=/data/cache\n")
        self.assertEqual(trim_disk_cache.disk_cache_of([project, user]), "/data/cache")
        off = self.rc("build --disk_cache=\n")
        self.assertEqual(trim_disk_cache.disk_cache_of([project, off]), "")
        self.assertEqual(trim_disk_cache.disk_cache_of([project, "/nonexistent/rc"]),
                         os.path.expanduser("~/.cache/x"))

    def test_sizes(self):
        self.assertEqual(trim_disk_cache._parse_size("24G"), 24 << 30)
        self.assertEqual(trim_disk_cache._parse_size("512MiB"), 512 << 20)
        self.assertEqual(trim_disk_cache._parse_size("1P"), 1 << 50)
        self.assertEqual(trim_disk_cache._parse_size("12345"), 12345)
        with self.assertRaises(ValueError):
            trim_disk_cache._parse_size("lots")


if __name__ == "__main__":
    unittest.main()
