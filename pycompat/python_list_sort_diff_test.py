"""Reference side of python_list_sort_diff_test: CPython's own list sort.

Usage: python_list_sort_diff_test.py CASES OUT. Each line of CASES is one
case, "<reverse 0|1> <key> <key> ..." with the keys as Python float reprs
("nan", "inf", "-0.0" included); the matching line of OUT holds
sorted(range(n), key=keys.__getitem__, reverse=reverse), space-separated.
Requires CPython 3.11 (3.13 changed how runs are detected, which changes the
order when keys hold NaN).
"""

import sys


def main():
    if sys.version_info[:2] != (3, 11):
        raise SystemExit(f"needs CPython 3.11, got {sys.version}")
    out = []
    with open(sys.argv[1]) as f:
        for line in f:
            fields = line.split()
            reverse = fields[0] == "1"
            keys = [float(x) for x in fields[1:]]
            order = sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)
            out.append(" ".join(map(str, order)))
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


main()
