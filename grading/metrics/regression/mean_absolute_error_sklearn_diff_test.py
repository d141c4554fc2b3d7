"""Random inputs for our C++ MeanAbsoluteError, with scikit-learn's outcome.

Run by mean_absolute_error_sklearn_diff_test (a cc_test) as
  python3 mean_absolute_error_sklearn_diff_test.py OUT_FILE [SEED]

The reference is scikit-learn 1.5.1's mean_absolute_error (upstream's pinned
version, from the reference environment).

Format, one token list per line:
  case mae <index>
  col <dtype> <n> <cell>...        (y_true, then y_pred)
  ok <value as float.hex()>
  raise <exception class> <message as UTF-8 hex>
Cells: i:<int> f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing).
"""

import sys
import warnings

import numpy as np
from sklearn.metrics import mean_absolute_error

warnings.simplefilter("ignore")

rng = np.random.default_rng(20261129)
BIG_SIZES = [100_000, 30_000, 8193, 8192]


def seed_generator(seed):
    """Re-seeds the generator that the helpers below draw from."""
    global rng
    rng = np.random.default_rng(seed)


def size():
    if BIG_SIZES:
        return BIG_SIZES.pop()
    if rng.random() < 0.85:
        return int(rng.integers(1, 60))
    return int(rng.integers(60, 5000))


def object_array(values):
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr


NUMERIC_TEXT = ["1.5", " 2 ", "1_0", "3e-2", "-0", ".5", "7.", "1E1", "-4"]
BAD_TEXT = ["abc", "1,5", "0x10", "", "nan1", "1 2"]


def column(kind, n):
    """A column as pandas' read_csv could give it (its .to_numpy())."""
    scale = 10.0 ** int(rng.integers(-3, 7))  # Python float pow: numpy's is CPU-dependent
    if kind == "float":
        a = rng.normal(size=n) * scale
        if rng.random() < 0.3:
            a = np.round(a, int(rng.integers(0, 3)))
        return a
    if kind == "float_nonfinite":
        a = rng.random(n) * scale
        a[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf])
        return a
    if kind == "float_big":
        a = rng.random(n)
        a[rng.integers(0, n)] = rng.choice([1e200, -1e200, 1.7e308, -1.7e308])
        return a
    if kind == "int":
        return rng.integers(-50_000_000, 50_000_000, n).astype(np.int64)
    if kind == "int_huge":  # int64 subtraction wraps around in numpy
        a = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
        if rng.random() < 0.3:
            a[rng.integers(0, n)] = -2**63
        return a
    if kind == "bool":
        return rng.random(n) < 0.5
    if kind == "object_numeric":
        vals = []
        for _ in range(n):
            r = rng.random()
            if r < 0.3:
                vals.append(str(rng.choice(NUMERIC_TEXT)))
            elif r < 0.5:
                vals.append(int(rng.integers(-9, 9)))
            elif r < 0.6:
                vals.append(bool(rng.random() < 0.5))
            else:
                vals.append(float(rng.normal() * 5))
        if rng.random() < 0.1:
            vals[int(rng.integers(0, n))] = str(rng.choice(["inf", "-Infinity", "nan"]))
        return object_array(vals)
    if kind == "object_bad":
        vals = [str(rng.choice(NUMERIC_TEXT)) for _ in range(n)]
        vals[int(rng.integers(0, n))] = str(rng.choice(BAD_TEXT))
        return object_array(vals)
    if kind == "bool_nan":
        vals = [bool(b) for b in rng.random(n) < 0.5]
        vals[int(rng.integers(0, n))] = np.nan
        return object_array(vals)
    raise ValueError(kind)


TRUE_KINDS = ["float"] * 6 + ["int", "int_huge", "bool", "float_nonfinite", "object_numeric"]
PRED_KINDS = ["float"] * 8 + ["int", "int_huge", "bool", "float_nonfinite", "float_big",
                              "object_numeric", "object_bad", "bool_nan"]


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


def random_pair():
    """A (y_true, y_pred) pair of columns, sometimes of different lengths."""
    n = size()
    y_true = column(str(rng.choice(TRUE_KINDS)), n)
    y_pred = column(str(rng.choice(PRED_KINDS)), n)
    if y_true.dtype == y_pred.dtype and y_true.dtype != object and rng.random() < 0.2:
        exact = rng.random(n) < 0.5
        y_pred[exact] = y_true[exact]
    if rng.random() < 0.03:
        y_pred = y_pred[: max(0, n - 1)]
    if rng.random() < 0.01:
        y_true, y_pred = y_true[:0], y_pred[:0]
    return y_true, y_pred


def main():
    out_path = sys.argv[1]
    seed_generator(int(sys.argv[2]) if len(sys.argv) > 2 else 20261129)
    lines = []
    for index in range(1500):
        y_true, y_pred = random_pair()
        lines.append(f"case mae {index}")
        lines.append(column_line(y_true))
        lines.append(column_line(y_pred))
        try:
            value = float(mean_absolute_error(y_true, y_pred))
            lines.append(f"ok {value.hex()}")
        except Exception as e:  # every exception counts: upstream turns them all into "invalid"
            lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
