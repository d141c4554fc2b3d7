#!/usr/bin/env python3
"""Checks that no source file includes a header of a layer above its own
(tools/layers.bzl has the order). Reads the files named on the command line,
paths relative to the workspace root; prints each violation and exits 1 if
there is any.

A test file (*_test.cc, *_benchmark.cc, a *testing* helper) may also include
the test helpers of any layer it may otherwise use, and the test-support
packages base/testing and testdata/common."""
import re
import sys

# (path prefix, layer); the longest matching prefix wins.
LAYERS = [
    ("base/", "base"),
    ("formats/", "formats"),
    ("pycompat/", "pycompat"),
    ("grading/metrics/", "metrics"),
    ("grading/outcome.", "outcome"),
    ("grading/", "grading"),
    ("testdata/", "testdata"),
    ("competitions/common/", "competitions_common"),
    ("competitions/families/", "families"),
    ("competitions/", "competition"),
    ("agent_runner/", "agent_runner"),
    ("tools/", "tools"),
]

# What each layer's production code may include besides its own layer.
ALLOWED = {
    "base": set(),
    "formats": {"base"},
    "pycompat": {"base"},
    "outcome": set(),
    "metrics": {"base", "pycompat", "outcome"},
    "grading": {"base", "pycompat", "formats", "metrics", "outcome"},
    "testdata": {"base", "formats", "pycompat"},
    "competitions_common": {"base", "formats", "pycompat", "outcome", "metrics", "grading"},
    "families": {"base", "formats", "pycompat", "outcome", "metrics", "grading", "testdata",
                 "competitions_common"},
    "competition": {"base", "formats", "pycompat", "outcome", "metrics", "grading", "testdata",
                    "competitions_common", "families"},
    "agent_runner": {"base"},
    "tools": {"base", "formats", "pycompat", "outcome", "metrics", "grading", "testdata",
              "competitions_common", "families", "competition", "agent_runner"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    best = None
    for prefix, layer in LAYERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return best[1] if best else None


def is_test(path):
    name = path.rsplit("/", 1)[-1]
    return ("_test" in name or "_benchmark" in name or "testing" in path
            or name.startswith("fake_"))


def competition_package(path):
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] == "competitions" and parts[1] not in ("common", "families"):
        return parts[1]
    return None


def main(paths):
    problems = []
    for path in paths:
        own = layer_of(path)
        if own is None:
            continue
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            problems.append("%s: cannot read (%s)" % (path, e))
            continue
        for included in INCLUDE.findall(text):
            if "/" not in included:
                continue  # a file of the same directory
            theirs = layer_of(included)
            if theirs is None:
                continue  # a system or third-party header
            if theirs == own:
                mine, other = competition_package(path), competition_package(included)
                if mine and other and mine != other:
                    problems.append("%s includes %s: another competition's code (shared code "
                                    "belongs in competitions/families/)" % (path, included))
                continue
            allowed = ALLOWED[own]
            if theirs in allowed:
                continue
            if is_test(path) and (is_test(included) or included.startswith("base/testing/") or
                                  included.startswith("testdata/common/")):
                continue
            problems.append("%s (layer %s) includes %s (layer %s): a layer may include only %s" %
                            (path, own, included, theirs,
                             ", ".join(sorted(allowed | {own})) or own))
    for p in problems:
        print(p)
    print("%d files checked, %d violations" % (len(paths), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
