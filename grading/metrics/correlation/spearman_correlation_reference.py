"""Random inputs for SpearmanCorrelation, with the outcome of scipy 1.14.1's
`spearmanr(x, y).correlation` on each (as pandas Series, the way upstream's
graders call it).

Run by spearman_correlation_scipy_diff_test with the reference environment
(tools/python/requirements.lock) as
  python3 spearman_correlation_reference.py OUT_FILE SEED

Format: one case per block of four lines:
  case <index> <description>
  col <int64|float64|bool|object> <n> <cells>...   (twice: x, then y)
  ok <repr of the correlation> | raise <exception class>
Cells: int64 and bool as integers, float64 as repr ("nan", "inf"), object
as the hex of the UTF-8 text, or "~" for a missing value.
"""

import sys
import warnings

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

warnings.simplefilter("ignore")


def column_line(series):
    kind = series.dtype.kind
    if kind == "O":
        cells = ["~" if isinstance(v, float) else v.encode().hex() for v in series]
        dtype = "object"
    elif kind == "f":
        cells = [repr(float(v)) for v in series]
        dtype = "float64"
    elif kind == "b":
        cells = [str(int(v)) for v in series]
        dtype = "bool"
    else:
        cells = [str(int(v)) for v in series]
        dtype = "int64"
    return f"col {dtype} {len(series)} " + " ".join(cells)


def random_column(rng, n, kind):
    if kind == "ties":
        return pd.Series(rng.integers(0, 4, size=n).astype(np.float64) / 4)
    if kind == "int":
        return pd.Series(rng.integers(-5, 6, size=n))
    if kind == "bigint":
        # Neighbouring int64 values that float64 cannot tell apart.
        return pd.Series(2**60 + rng.integers(0, 4, size=n))
    if kind == "bool":
        return pd.Series(rng.random(n) < 0.5)
    if kind == "text":
        words = np.array(["a", "b", "ab", "B", "é", "0.5", "10", "9"], dtype=object)
        return pd.Series(rng.choice(words, size=n), dtype=object)
    if kind == "textnan":
        s = pd.Series(rng.choice(np.array(["x", "y", "z"], dtype=object), size=n), dtype=object)
        s[int(rng.integers(0, n))] = np.nan
        return s
    if kind == "inf":
        v = rng.normal(size=n)
        v[rng.random(n) < 0.2] = np.inf
        v[rng.random(n) < 0.1] = -np.inf
        return pd.Series(v)
    if kind == "nan":
        v = rng.normal(size=n)
        v[int(rng.integers(0, n))] = np.nan
        return pd.Series(v)
    if kind == "const":
        return pd.Series(np.full(n, 0.3))
    return pd.Series(rng.normal(size=n))


def main():
    out_path, seed = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(seed)
    kinds = ["normal", "normal", "normal", "ties", "ties", "int", "bigint", "bool", "text",
             "text", "textnan", "inf", "inf", "nan", "const"]
    sizes = [0, 1, 2, 2, 3, 4, 5, 7, 10, 33, 200, 1000] * 12 + [100000, 99999, 30000]
    with open(out_path, "w") as out:
        for index, n in enumerate(sizes):
            kx, ky = rng.choice(kinds), rng.choice(kinds)
            x = random_column(rng, max(n, 1), kx)[:n].reset_index(drop=True)
            if rng.random() < 0.3 and n > 0:
                # Correlated: y a noisy monotone function of x's ranks.
                y = pd.Series(np.argsort(np.argsort(np.asarray(x, dtype=str) if kx in ("text", "textnan") else x.to_numpy())) + rng.normal(0, n / 4 + 1, size=n))
                ky = "corr"
            else:
                y = random_column(rng, max(n, 1), ky)[:n].reset_index(drop=True)
            if rng.random() < 0.04 and n > 0:
                y = y[: n - 1]
                ky += "-short"
            try:
                outcome = f"ok {spearmanr(x, y).correlation!r}"
            except Exception as e:  # noqa: BLE001 - the class is the outcome
                outcome = f"raise {type(e).__name__}"
            out.write(f"case {index} {kx}/{ky}\n{column_line(x)}\n{column_line(y)}\n{outcome}\n")


if __name__ == "__main__":
    main()
