#!/usr/bin/env python3
"""Checks that no source file includes a header of a layer its own may not use.

  layering_check.py LAYERS_JSON FILE...

LAYERS_JSON is bazel/layers.bzl's table as the `layer_table` rule writes it
(the one source of the order); FILE paths are relative to the workspace root
(the current directory). Prints each violation and exits 1 if there is any.

Besides the table's rules:
- a file in no layer (a folder of a user's own, e.g. an agent's package) is
  outside the project's layering and not checked; it is counted;
- a test file (*_test*, *_benchmark*, fake_*, anything under a testing/
  folder) may also include test helpers of any layer: other test files,
  base/testing/ and the synthetic-data framework (synthetic/);
- a competition's package may not include another competition's files
  (shared code belongs in competitions/families/ or competitions/common/)."""
import json
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


class Layers:
    def __init__(self, table):
        self.layers = table["layers"]
        self.uses = {layer["name"]: set(layer["uses"]) for layer in self.layers}

    def of(self, path):
        """The name of the layer with the longest path prefix of `path`."""
        best, length = None, -1
        for layer in self.layers:
            for prefix in layer["paths"]:
                hit = path == "" if prefix == "" else path.startswith(prefix)
                if hit and len(prefix) > length:
                    best, length = layer["name"], len(prefix)
        return best

    def may_use(self, user, used):
        return used == user or used in self.uses[user]


def is_test(path):
    name = path.rsplit("/", 1)[-1]
    return ("_test" in name or "_benchmark" in name or "/testing/" in "/" + path
            or name.startswith("fake_"))


def competition_package(path):
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] == "competitions" and parts[1] not in ("common", "families"):
        return parts[1]
    return None


def check(layers, paths):
    """Returns (violations, files in no layer)."""
    problems, outside = [], []
    for path in paths:
        own = layers.of(path)
        if own is None:
            outside.append(path)
            continue
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            problems.append("%s: cannot read (%s)" % (path, e))
            continue
        for included in INCLUDE.findall(text):
            if "/" not in included:
                continue  # a file of the same directory
            theirs = layers.of(included)
            if theirs is None:
                continue  # a system or third-party header
            mine, other = competition_package(path), competition_package(included)
            if mine and other and mine != other:
                problems.append("%s includes %s: another competition's code (shared code "
                                "belongs in competitions/families/)" % (path, included))
                continue
            if layers.may_use(own, theirs):
                continue
            if is_test(path) and (is_test(included) or included.startswith("base/testing/") or
                                  included.startswith("synthetic/")):
                continue
            allowed = sorted(layers.uses[own] | {own})
            problems.append("%s (layer %s) includes %s (layer %s): layer %s may include only %s "
                            "(bazel/layers.bzl)" % (path, own, included, theirs, own,
                                                    ", ".join(allowed)))
    return problems, outside


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        layers = Layers(json.load(f))
    paths = argv[2:]
    problems, outside = check(layers, paths)
    for p in problems:
        print(p)
    print("%d files checked, %d violations, %d files in no layer%s" %
          (len(paths) - len(outside), len(problems), len(outside),
           (": " + ", ".join(outside[:5]) + (", ..." if len(outside) > 5 else ""))
           if outside else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
