#!/usr/bin/python3
"""Random inputs for PearsonCorrelation and QuadraticWeightedKappa, with the
outcome of Debian's scipy 1.10 `pearsonr` / scikit-learn 1.2.1
`cohen_kappa_score(weights="quadratic")` on each.

Run by pearson_correlation_scipy_diff_test and
quadratic_weighted_kappa_sklearn_diff_test as
  /usr/bin/python3 correlation_kappa_reference.py {pearson|qwk} OUT_FILE SEED
Upstream's environment pins scipy 1.14.1 (environment/requirements.txt) and
requires scikit-learn >= 1.5:
  - pearsonr changed in 1.14: it scales the centred vectors by their maximum,
    takes norms with np.linalg.norm and sums the products with np.sum, where
    1.10 uses scipy.linalg.norm and np.dot (BLAS). So every scored pearson
    case carries pearsonr_114, a numpy re-statement of 1.14.1's steps, which
    the C++ result must equal bit for bit, and 1.10's value, which it must
    match within 1e-9. 1.10's scipy.linalg.norm also raises ValueError on NaN
    or infinity, where 1.14.1 returns NaN (and 1.10's two-value shortcut
    returns +-1 even then, or raises TypeError on bools): for those cases the
    re-statement is the only reference. Object columns (rejected by 1.14.1 outright) are left to
    the unit tests.
  - cohen_kappa_score and the label checks it runs are the same in 1.2.1 and
    1.5 for these inputs.

Format: one case per block:
  case <index>
  col <int64|float64|bool> <n> <float.hex() or n for NaN>...   (twice)
  ok <float.hex()> | raise <exception class>                       (qwk)
  ok <pearsonr_114 float.hex()> <1.10 float.hex() or "-" if 1.10 raised>
     | raise <exception class>                                     (pearson)
"""

import sys
import warnings

import numpy as np
from scipy.stats import pearsonr
from sklearn.metrics import cohen_kappa_score

warnings.simplefilter("ignore")


def column_line(values):
    values = np.asarray(values)
    dtype = {"i": "int64", "f": "float64", "b": "bool"}[values.dtype.kind]
    cells = ["n" if (dtype == "float64" and np.isnan(v)) else float(v).hex() for v in values]
    return f"col {dtype} {len(values)} " + " ".join(cells)


def sizes(rng):
    return [1, 2, 2, 3, 4, 5, 7, 10, 50, 130, 1000, int(rng.integers(1, 300))] * 8 + [100000, 99999]


def pearson_cases(rng):
    for size in sizes(rng):
        n = size
        m = n if rng.random() < 0.95 else max(0, n + int(rng.integers(-2, 3)))
        kind = rng.integers(0, 6)
        x = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=n)
        if kind == 0:
            y = x + rng.normal(0, rng.uniform(0.01, 2), size=m) if m == n else rng.normal(size=m)
        elif kind == 1:
            y = rng.integers(-5, 5, size=m)
        elif kind == 2:
            y = rng.random(m) < 0.5
        elif kind == 3:
            y = np.full(m, rng.choice([0.0, 1.0, 0.5]))
        elif kind == 4:
            y = rng.normal(1e6, 1e3, size=m)
        else:
            y = rng.normal(size=m)
            if m:
                y[rng.integers(0, m)] = rng.choice([np.nan, np.inf, -np.inf])
        yield x, y


def qwk_cases(rng):
    for size in sizes(rng):
        n = size
        m = n if rng.random() < 0.95 else max(1, n + int(rng.integers(-2, 3)))
        kind = rng.integers(0, 7)
        labels = rng.choice([1, 2, 3, 4, 5, 6], size=n)
        if kind == 0:
            pred = np.clip(labels[:m] + rng.integers(-1, 2, size=min(m, n)), 1, 6) if m == n else rng.integers(1, 7, size=m)
        elif kind == 1:
            pred = rng.integers(0, 10, size=m)
        elif kind == 2:
            pred = rng.integers(1, 7, size=m).astype(float)
        elif kind == 3:
            pred = rng.uniform(1, 6, size=m)
        elif kind == 4:
            pred = np.full(m, rng.integers(1, 7))
            if rng.random() < 0.5:
                labels = np.full(n, rng.integers(1, 7))
        elif kind == 5:
            pred = rng.integers(1, 7, size=m).astype(float)
            if m:
                pred[rng.integers(0, m)] = rng.choice([np.nan, np.inf, 1e30, 2.5])
        else:
            pred = rng.random(m) < 0.5
        yield pred, labels


def pearsonr_114(x, y):
    """scipy 1.14.1's pearsonr statistic for 1-D numeric inputs (its
    array-API code path with numpy), without the warnings and p-value."""
    n = len(x)
    if n != len(y):
        raise ValueError("`x` and `y` must have the same length along `axis`.")
    if n < 2:
        raise ValueError("`x` and `y` must have length at least 2.")
    dtype = np.result_type(x.dtype, y.dtype)
    if np.issubdtype(dtype, np.integer):
        dtype = np.float64
    x = x.astype(dtype)
    y = y.astype(dtype)
    const_xy = np.all(x == x[0:1]) | np.all(y == y[0:1])
    with np.errstate(all="ignore"):
        xm = x - np.mean(x, keepdims=True)
        ym = y - np.mean(y, keepdims=True)
        xm = xm / np.max(np.abs(xm), keepdims=True)
        ym = ym / np.max(np.abs(ym), keepdims=True)
        normxm = np.linalg.norm(xm, axis=-1, keepdims=True)
        normym = np.linalg.norm(ym, axis=-1, keepdims=True)
        r = np.sum(xm / normxm * ym / normym, axis=-1)
    r = np.clip(r, -1.0, 1.0)
    if const_xy:
        r = np.nan
    if n == 2:
        r = np.round(r)
    return float(r)


def main():
    metric, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = np.random.default_rng(seed)
    cases = pearson_cases(rng) if metric == "pearson" else qwk_cases(rng)
    with open(out, "w") as f:
        for index, (a, b) in enumerate(cases):
            f.write(f"case {index}\n{column_line(a)}\n{column_line(b)}\n")
            if metric == "pearson":
                try:
                    value = pearsonr_114(a, b)
                except ValueError as e:
                    f.write(f"raise {type(e).__name__}\n")
                    continue
                try:
                    old = float(pearsonr(a, b)[0]).hex()
                except (ValueError, TypeError) as e:
                    # 1.10 only: NaN/inf rejected by scipy.linalg.norm, and
                    # its n == 2 shortcut subtracts bools.
                    assert "infs or NaNs" in str(e) or "boolean subtract" in str(e), e
                    old = "-"
                f.write(f"ok {value.hex()} {old}\n")
                continue
            try:
                value = cohen_kappa_score(a, b, weights="quadratic")
                f.write(f"ok {float(value).hex()}\n")
            except Exception as e:  # noqa: BLE001 - any exception is an outcome
                f.write(f"raise {type(e).__name__}\n")


main()
