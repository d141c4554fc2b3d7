"""Grades cases as upstream's grade.py does, for grade_python_diff_test.

Usage: grade_python_diff_test.py DIR COUNT
Reads DIR/<i>.sub.csv and DIR/<i>.ans.csv; prints one line per case: the
score's repr, or "raise". Debian's python3-levenshtein only compares
strings, so the int sequences are mapped to strings of code points first
(upstream's Levenshtein >= 0.25 compares the int lists directly; the
distance is the same).
"""

import sys

import numpy as np
import pandas as pd
from Levenshtein import distance


def seq_distance(a, b):
    codes = {}
    encode = lambda s: "".join(chr(0x100 + codes.setdefault(x, len(codes))) for x in s)
    return distance(encode(a), encode(b))


def grade(sub, ans):
    if len(sub) != len(ans) or "Id" not in sub.columns or "Sequence" not in sub.columns:
        raise ValueError("invalid")
    sub = sub.sort_values("Id")
    ans = ans.sort_values("Id")
    if (sub["Id"].values != ans["Id"].values).any():
        raise ValueError("ids")
    truth = [list(map(int, x.split())) for x in ans["Sequence"].astype(str)]
    pred = [list(map(int, x.split())) for x in sub["Sequence"].astype(str)]
    total = np.sum([seq_distance(a, b) for a, b in zip(truth, pred)])
    return total / sum(len(x) for x in truth)


folder, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    try:
        score = grade(pd.read_csv(f"{folder}/{i}.sub.csv"), pd.read_csv(f"{folder}/{i}.ans.csv"))
        print(repr(float(score)))
    except Exception:
        print("raise")
