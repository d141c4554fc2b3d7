"""Grades cases as upstream's grade.py does, for grade_python_diff_test.

Usage: grade_python_diff_test.py DIR COUNT
Reads DIR/<i>.sub.csv and DIR/<i>.ans.csv; prints one line per case: the
score's repr, or "raise".
"""

import sys

import pandas as pd
from sklearn.metrics import accuracy_score


def grade(sub, ans):
    if len(sub) != len(ans) or "id" not in sub.columns or "predicted" not in sub.columns:
        raise ValueError("invalid")
    sub = sub.sort_values("id")
    ans = ans.sort_values("id")
    if (sub["id"].values != ans["id"].values).any():
        raise ValueError("ids")
    y_true = [int(y) for y in ans["predicted"]]
    y_pred = [int(y) if isinstance(y, int) else int(y.split()[0]) for y in sub["predicted"]]
    return 1 - accuracy_score(y_true=y_true, y_pred=y_pred)


folder, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    try:
        score = grade(pd.read_csv(f"{folder}/{i}.sub.csv"), pd.read_csv(f"{folder}/{i}.ans.csv"))
        print(repr(float(score)))
    except Exception:
        print("raise")
