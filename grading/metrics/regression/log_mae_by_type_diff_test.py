"""Random inputs for our C++ LogMaeByType, with upstream's outcome.

Run by log_mae_by_type_diff_test (a cc_test) as
  python3 log_mae_by_type_diff_test.py OUT_FILE [SEED]

The reference restates champs-scalar-coupling's grade.py after its merge:
pandas groupby("type"), np.log(sklearn mean_absolute_error) per group, and
np.mean of the logs. Columns come from mean_absolute_error_sklearn_diff_test's
generator (every dtype a CSV column can have); sklearn 1.2.1's MAE is 1.5's
(see that script).

Format: "case lmae <index>", then three "col" lines (types, y_true, y_pred)
as in that script, then "ok <score float.hex()> <largest |log| float.hex()> <groups>" or
"raise <class> <hex message>".
"""

import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import mean_absolute_error

import mean_absolute_error_sklearn_diff_test as columns

warnings.simplefilter("ignore")

LABELS = ["1JHC", "1JHN", "2JHH", "2JHC", "3JHN", "\u00c4x", "b", "B "]


def reference(types, y_true, y_pred):
    """The score, the largest finite |log| of a group's MAE (0.0 if none) and
    the number of groups: with these the test bounds how far numpy's SIMD log
    can move the score."""
    frame = pd.DataFrame({"type": types, "t": y_true, "p": y_pred})
    logs = [np.log(mean_absolute_error(g["t"], g["p"])) for _, g in frame.groupby("type")]
    largest = max([abs(float(v)) for v in logs if np.isfinite(v)], default=0.0)
    return float(np.mean(logs)), largest, len(logs)


def main():
    out_path = sys.argv[1]
    columns.seed_generator(int(sys.argv[2]) if len(sys.argv) > 2 else 20261130)
    rng = columns.rng
    lines = []
    for index in range(600):
        y_true, y_pred = columns.random_pair()
        n = min(len(y_true), len(y_pred))
        if n == 0:
            y_true, y_pred = columns.random_pair()
            n = min(len(y_true), len(y_pred))
        y_true, y_pred = y_true[:n], y_pred[:n]
        labels = LABELS[: int(rng.integers(1, len(LABELS) + 1))]
        types = np.empty(n, dtype=object)
        for i in range(n):
            types[i] = np.nan if rng.random() < 0.05 else str(rng.choice(labels))
        if rng.random() < 0.1 and n > 1:  # one group predicted perfectly
            y_pred = y_pred.copy()
            if y_pred.dtype == y_true.dtype and y_true.dtype != object:
                mask = types == types[0]
                y_pred[mask] = y_true[mask]
        lines.append(f"case lmae {index}")
        lines.append(columns.column_line(types))
        lines.append(columns.column_line(y_true))
        lines.append(columns.column_line(y_pred))
        try:
            value, largest, groups = reference(types, y_true, y_pred)
            lines.append(f"ok {value.hex()} {largest.hex()} {groups}")
        except Exception as e:  # every exception counts: upstream turns them all into "invalid"
            lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
