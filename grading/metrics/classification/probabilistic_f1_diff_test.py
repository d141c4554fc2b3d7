"""Random inputs for our C++ ProbabilisticFBeta, with a Python restatement's outcome.

Run by probabilistic_f1_diff_test (a cc_test) as
  python3 probabilistic_f1_diff_test.py OUT_FILE [SEED]

The reference below restates rsna-breast-cancer-detection's `pfbeta` (a plain
Python loop over numpy arrays, so the Python/numpy scalar types matter: a
Python 0 / 0 raises ZeroDivisionError, a numpy one warns and gives NaN).

Format, one token list per line:
  case pf1 <index> <beta as float.hex()>
  col <dtype> <n> <cell>...        (labels, then predictions)
  ok <value as float.hex()>
  raise <exception class> <message as UTF-8 hex>
Cells: i:<int> f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing).
"""

import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

rng = np.random.default_rng(20261129)
BIG_SIZES = [100_000, 30_000, 8193]


def reference_pfbeta(labels, predictions, beta):
    positives = 0
    ctp = 0
    cfp = 0
    for i in range(len(labels)):
        p = min(max(predictions[i], 0), 1)
        if labels[i]:
            positives += 1
            ctp += p
        else:
            cfp += p
    beta_squared = beta * beta
    precision = ctp / (ctp + cfp)
    recall = ctp / positives
    if precision > 0 and recall > 0:
        return (1 + beta_squared) * (precision * recall) / (beta_squared * precision + recall)
    return 0


def size():
    if BIG_SIZES:
        return BIG_SIZES.pop()
    if rng.random() < 0.85:
        return int(rng.integers(1, 40))
    return int(rng.integers(40, 3000))


def object_array(values):
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr


def labels_column(n):
    kind = rng.choice(["int"] * 12 + ["bool", "float", "none"])
    rate = rng.choice([0.02, 0.3, 0.3, 0.7]) if n > 200 else rng.choice([0.3, 0.5, 0.7])
    a = (rng.random(n) < rate)
    if kind == "bool":
        return a
    if kind == "float":
        return a.astype(np.float64)
    if kind == "none":
        return np.zeros(n, dtype=np.int64)
    return a.astype(np.int64)


def predictions_column(n, labels):
    kind = rng.choice(["float", "float", "float", "signal", "wide", "negative", "zero", "int01",
                       "int_wide", "bool", "nan", "object", "object_text", "object_zero"])
    if kind == "float":
        return rng.random(n)
    if kind == "signal":
        return np.clip(labels.astype(np.float64) * 0.6 + rng.random(n) * 0.5, 0, 1)
    if kind == "wide":
        return rng.normal(size=n) * 1.5
    if kind == "negative":
        a = -rng.random(n) - 0.01
        if rng.random() < 0.3:
            a[int(rng.integers(0, n))] = rng.choice([0.0, -0.0, 2.0, 0.5])
        return a
    if kind == "zero":
        return np.zeros(n)
    if kind == "int01":
        return rng.integers(0, 2, n).astype(np.int64)
    if kind == "int_wide":
        return rng.integers(-3, 4, n).astype(np.int64)
    if kind == "bool":
        return rng.random(n) < 0.5
    if kind == "nan":
        a = rng.random(n)
        a[int(rng.integers(0, n))] = np.nan
        return a
    if kind == "object":  # bools mixed with NaN, as pandas reads such a column
        vals = [bool(b) for b in rng.random(n) < 0.5]
        vals[int(rng.integers(0, n))] = np.nan
        return object_array(vals)
    if kind == "object_zero":  # Python numbers, all clipped to 0
        return object_array([float(-rng.random()) if rng.random() < 0.5 else 0 for _ in range(n)])
    vals = [f"{rng.random():.3f}" for _ in range(n)]
    return object_array(vals)


def encode_column(arr):
    if arr.dtype == np.bool_:
        return "bool", [f"b:{int(v)}" for v in arr]
    if arr.dtype == np.int64:
        return "int64", [f"i:{int(v)}" for v in arr]
    if arr.dtype == np.float64:
        return "float64", [f"f:{float(v).hex()}" for v in arr]
    toks = []
    for v in arr:
        if isinstance(v, str):
            toks.append("s:" + v.encode().hex())
        elif isinstance(v, bool):
            toks.append(f"b:{int(v)}")
        elif isinstance(v, int):
            toks.append(f"i:{v}")
        elif isinstance(v, float) and np.isnan(v):
            toks.append("n")
        else:
            toks.append(f"f:{float(v).hex()}")
    return "object", toks


def column_line(arr):
    dtype, toks = encode_column(arr)
    return f"col {dtype} {len(toks)} " + " ".join(toks)


def main():
    out_path = sys.argv[1]
    global rng
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 20261129)
    lines = []
    for index in range(1500):
        n = size()
        labels = labels_column(n)
        predictions = predictions_column(n, labels)
        beta = float(rng.choice([1.0, 1.0, 0.5, 2.0]))
        lines.append(f"case pf1 {index} {beta.hex()}")
        lines.append(column_line(labels))
        lines.append(column_line(predictions))
        try:
            value = float(reference_pfbeta(labels, predictions, beta))
            lines.append(f"ok {value.hex()}")
        except Exception as e:  # upstream's framework turns any exception into "invalid"
            lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
