"""Random inputs for PearsonCorrelation and QuadraticWeightedKappa, with the
outcome of scipy 1.14.1's `pearsonr(x, y).statistic` / scikit-learn 1.5.1's
`cohen_kappa_score(weights="quadratic")` on each (upstream's pinned
versions: the reference environment, tools/python/requirements.lock).

Run by correlation_kappa_reference_diff_test as
  python3 correlation_kappa_reference.py {pearson|qwk} OUT_FILE SEED
Object columns (rejected by pearsonr outright) are left to the unit tests.
(scipy 1.10, Debian's, computed pearsonr another way: scipy.linalg.norm and
np.dot, raising on NaN or infinity; 1.14 scales the centred vectors by their
maximum and sums with np.sum.)

Format: one case per block:
  case <index>
  col <int64|float64|bool> <n> <float.hex() or n for NaN>...   (twice)
  ok <float.hex()> | raise <exception class>
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


def main():
    metric, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = np.random.default_rng(seed)
    cases = pearson_cases(rng) if metric == "pearson" else qwk_cases(rng)
    with open(out, "w") as f:
        for index, (a, b) in enumerate(cases):
            f.write(f"case {index}\n{column_line(a)}\n{column_line(b)}\n")
            if metric == "pearson":
                try:
                    value = pearsonr(a, b).statistic
                except ValueError as e:
                    f.write(f"raise {type(e).__name__}\n")
                    continue
                f.write(f"ok {float(value).hex()}\n")
                continue
            try:
                value = cohen_kappa_score(a, b, weights="quadratic")
                f.write(f"ok {float(value).hex()}\n")
            except Exception as e:  # noqa: BLE001 - any exception is an outcome
                f.write(f"raise {type(e).__name__}\n")


main()
