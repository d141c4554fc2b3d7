#!/usr/bin/env python3
"""Finds the packages of a source tree: every directory with a BUILD or
BUILD.bazel file, below the tree's root, outside Bazel's convenience links
(bazel-*), .git, the directories .bazelignore names and nested repositories
(a directory with its own WORKSPACE), as Bazel itself sees the packages.

  find_packages.py --bzl ROOT     a Starlark file: PACKAGES (every package,
                                  "" for the root) and PACKAGES_WITH_SOURCES
                                  (those with C++ sources of their own, which
                                  must declare layer_sources())
  find_packages.py --digest ROOT  one line, the SHA-256 of that file's text:
                                  ./bazelw passes it to Bazel so that the
                                  @mlebench_packages repository is made again
                                  when a package comes or goes
  find_packages.py --files ROOT   the C++ sources of every package, one path
                                  a line (what the include check reads)

@mlebench_packages (bazel/packages_repository.bzl) and //bazel:layering_test's
planted case run it, so a new package is found the same way in both."""
import hashlib
import os
import sys

BUILD_FILES = ("BUILD.bazel", "BUILD")
SOURCE_SUFFIXES = (".cc", ".h", ".inc")


def ignored_paths(root):
    """The directories .bazelignore names (one path a line, # comments)."""
    try:
        with open(os.path.join(root, ".bazelignore"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return set()
    return {os.path.normpath(line.strip()) for line in lines
            if line.strip() and not line.strip().startswith("#")}


def walk(root):
    """Returns [(package, [C++ sources of that package, relative to root])]."""
    packages = {}
    ignored = ignored_paths(root)
    for directory, subdirs, files in os.walk(root):
        rel = os.path.relpath(directory, root)
        rel = "" if rel == "." else rel
        subdirs[:] = sorted(
            d for d in subdirs
            if d != ".git" and not d.startswith("bazel-") and
            os.path.join(rel, d) not in ignored and
            not os.path.islink(os.path.join(directory, d)) and
            not any(os.path.exists(os.path.join(directory, d, w))
                    for w in ("WORKSPACE", "WORKSPACE.bazel")))
        if any(b in files for b in BUILD_FILES):
            packages[rel] = []
        owner = rel
        while owner not in packages and owner:
            owner = owner.rpartition("/")[0]
        if owner in packages:
            packages[owner] += [os.path.join(rel, f) if rel else f
                                for f in sorted(files) if f.endswith(SOURCE_SUFFIXES)]
    return sorted(packages.items())


def starlark(root):
    found = walk(root)
    lines = ["# Written by bazel/find_packages.py: the packages of the source tree.",
             "PACKAGES = ["]
    lines += ['    "%s",' % p for p, _ in found]
    lines += ["]", "", "PACKAGES_WITH_SOURCES = ["]
    lines += ['    "%s",' % p for p, sources in found if sources]
    lines += ["]", ""]
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("--bzl", "--digest", "--files"):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[2]
    if not os.path.isdir(root):
        print("find_packages.py: %s is not a directory" % root, file=sys.stderr)
        return 2
    if argv[1] == "--files":
        for _, sources in walk(root):
            for s in sources:
                print(s)
    elif argv[1] == "--bzl":
        sys.stdout.write(starlark(root))
    else:
        print(hashlib.sha256(starlark(root).encode()).hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
