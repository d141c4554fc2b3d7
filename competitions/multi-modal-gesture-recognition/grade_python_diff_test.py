"""Grades cases as upstream's grade.py does, for grade_python_diff_test.

Usage: grade_python_diff_test.py DIR COUNT
Reads DIR/<i>.sub.csv and DIR/<i>.ans.csv; prints one line per case: the
score's repr, or "raise". Levenshtein 0.25.1 (upstream's pinned version,
from the reference environment) compares the int lists directly, as upstream
calls it.
"""

import sys

import numpy as np
import pandas as pd
from Levenshtein import distance


def grade(sub, ans):
    if len(sub) != len(ans) or "Id" not in sub.columns or "Sequence" not in sub.columns:
        raise ValueError("invalid")
    sub = sub.sort_values("Id")
    ans = ans.sort_values("Id")
    if (sub["Id"].values != ans["Id"].values).any():
        raise ValueError("ids")
    truth = [list(map(int, x.split())) for x in ans["Sequence"].astype(str)]
    pred = [list(map(int, x.split())) for x in sub["Sequence"].astype(str)]
    total = np.sum([distance(a, b) for a, b in zip(truth, pred)])
    return total / sum(len(x) for x in truth)


folder, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    try:
        score = grade(pd.read_csv(f"{folder}/{i}.sub.csv"), pd.read_csv(f"{folder}/{i}.ans.csv"))
        print(repr(float(score)))
    except Exception:
        print("raise")
