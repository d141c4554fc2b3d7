"""pandas' `DataFrame.sort_values` row order, for pandas_sort_diff_test.

Run by pandas_sort_diff_test (a cc_test) as
  python3 pandas_sort_diff_test.py CASES_FILE ORDERS_FILE
CASES_FILE holds one column a line: its dtype ("object", "int64", "float64",
"bool"), then one token a cell: "n" missing (NaN), "s<hex of UTF-8>" a str,
"b0"/"b1" a bool, "i<decimal>" an int, "f<repr>" a float.
ORDERS_FILE gets one line a column: the index of
`pd.DataFrame({"id": column}).sort_values("id")` (pandas' defaults:
kind="quicksort", na_position="last"), or "TypeError" when pandas raises it.
"""

import sys

import numpy as np
import pandas as pd


def cell(token):
    kind, text = token[0], token[1:]
    if kind == "n":
        return np.nan
    if kind == "s":
        return bytes.fromhex(text).decode("utf-8")
    if kind == "b":
        return text == "1"
    if kind == "i":
        return int(text)
    if kind == "f":
        return float(text)
    raise ValueError(f"bad token {token!r}")


lines = []
with open(sys.argv[1], encoding="ascii") as f:
    for line in f:
        dtype, *tokens = line.split()
        values = [cell(t) for t in tokens]
        if dtype == "object":
            column = np.empty(len(values), dtype=object)
            column[:] = values
        else:
            column = np.array(values, dtype=dtype)
        frame = pd.DataFrame({"id": column})
        assert str(frame["id"].dtype) == dtype, (dtype, frame["id"].dtype)
        try:
            index = frame.sort_values("id").index
        except TypeError:
            lines.append("TypeError")
        else:
            lines.append(" ".join(map(str, index)))

with open(sys.argv[2], "w", encoding="ascii") as f:
    f.write("\n".join(lines) + "\n")
