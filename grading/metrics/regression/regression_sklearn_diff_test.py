"""Random regression inputs for our C++ RMSE / RMSLE metrics, with sklearn's outcome.

Run by regression_sklearn_diff_test (a cc_test) as
  python3 regression_sklearn_diff_test.py OUT_FILE [SEED]
Each case is a block of lines (format below); the C++ test replays it through
RootMeanSquaredError / RootMeanSquaredLogError / MeanColumnWiseRmsle.

The reference is scikit-learn 1.5.1 (upstream's pinned version, from the
reference environment): root_mean_squared_error and
root_mean_squared_log_error, which cast both inputs to float64 (RMSE) or
check them with dtype="numeric" (RMSLE: bool stays bool; two bool inputs,
float16 arithmetic, are never generated) and reject negatives with "Root Mean
Squared Logarithmic Error ...". Every "ok" case also carries the older
spelling's value on the same 1.5.1, mean_squared_error(squared=False) /
sqrt(mean_squared_log_error), where it accepts the inputs, which must agree
within 1e-9 relative. (Until 2026-12-02 this ran on Debian's 1.2.1, which has
neither function; the reference was then a restatement from 1.2.1's pieces.)

Format, one token list per line:
  case <rmse|rmsle|mcrmsle> <index>
  col <dtype> <n> <cell>...        (rmse, rmsle: y_true, y_pred;
                                    mcrmsle: y_true_a, y_true_b, y_pred_a, y_pred_b)
  ok <1.5 reference value> <sklearn 1.2.1 value or -> [<part>...]
    rmsle and mcrmsle add one <part> per RMSLE they average (one, two), five
    tokens each, so that the test can bound how far numpy's SIMD log1p moves
    the score (see log1p_part): <part RMSLE> <largest |log1p|> <largest
    |log1p(t) - log1p(p)| over pairs t != p> <count of such pairs> <n>.
  raise <exception class> <message as UTF-8 hex>
Cells: i:<int> f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing).
"""

import math
import sys
import warnings

import numpy as np
from sklearn.metrics import (
    mean_squared_error,
    mean_squared_log_error,
    root_mean_squared_error,
    root_mean_squared_log_error,
)
from sklearn.utils.validation import check_array

warnings.simplefilter("ignore")

out_path = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20240612
rng = np.random.default_rng(seed)
lines = []
BIG_SIZES = []


def fhex(x):
    return float(x).hex()


def size():
    if BIG_SIZES:
        return BIG_SIZES.pop()
    if rng.random() < 0.85:
        return int(rng.integers(1, 60))
    return int(rng.integers(60, 3000))


def object_array(values):
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr


NUMERIC_TEXT = ["1.5", " 2 ", "1_0", "3e-2", "-0", ".5", "7.", "\u00a04", "1E1"]
BAD_TEXT = ["abc", "1,5", "0x10", "1__0", "", "nan1", "1 2"]


def column(kind, n, nonnegative):
    """A column as pandas' read_csv could give it (its .to_numpy())."""
    scale = 10.0 ** int(rng.integers(-3, 4))  # Python float pow: numpy's is CPU-dependent
    if kind == "float":
        a = rng.random(n) * scale if nonnegative else rng.normal(size=n) * scale
        if rng.random() < 0.3:
            a = np.round(a, int(rng.integers(0, 3)))
        return a
    if kind == "float_nonfinite":
        a = rng.random(n) * scale
        a[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf])
        return a
    if kind == "float_negative":
        a = rng.random(n) * scale
        a[rng.integers(0, n)] = -rng.choice([1e-300, 0.5, 3.0, 1.0])
        return a
    if kind == "float_big":
        a = rng.random(n)
        a[rng.integers(0, n)] = rng.choice([1e200, -1e200, 1.7e308])
        return a
    if kind == "int":
        lo = 0 if nonnegative else -20
        return rng.integers(lo, 50, n).astype(np.int64)
    if kind == "bool":
        return rng.random(n) < 0.5
    if kind == "object_numeric":  # numbers and numeric text pandas left as object
        vals = []
        for _ in range(n):
            r = rng.random()
            if r < 0.3:
                vals.append(str(rng.choice(NUMERIC_TEXT)))
            elif r < 0.5:
                vals.append(int(rng.integers(0, 9)))
            elif r < 0.6:
                vals.append(bool(rng.random() < 0.5))
            else:
                vals.append(float(rng.random() * 5))
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


TRUE_KINDS = ["float"] * 6 + ["int", "bool", "float_nonfinite", "object_numeric"]
PRED_KINDS = (["float"] * 10 + ["int", "bool", "float_nonfinite", "float_negative", "float_big",
                                "object_numeric", "object_bad", "bool_nan"])


def encode_column(arr):
    if arr.dtype == np.bool_:
        return "bool", [f"b:{int(v)}" for v in arr]
    if arr.dtype == np.int64:
        return "int64", [f"i:{int(v)}" for v in arr]
    if arr.dtype == np.float64:
        return "float64", [f"f:{fhex(v)}" for v in arr]
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
            toks.append(f"f:{fhex(v)}")
    return "object", toks


def write_column(arr):
    dtype, toks = encode_column(arr)
    lines.append(f"col {dtype} {len(toks)} " + " ".join(toks))


def rmse_15(y_true, y_pred):
    return float(root_mean_squared_error(y_true, y_pred))


def rmsle_15(y_true, y_pred):
    return float(root_mean_squared_log_error(y_true, y_pred))


def rmse_old_spelling(y_true, y_pred):
    return float(mean_squared_error(y_true, y_pred, squared=False))


def rmsle_old_spelling(y_true, y_pred):
    return float(np.sqrt(mean_squared_log_error(y_true, y_pred)))


def mcrmsle_15(true_a, true_b, pred_a, pred_b):
    return (rmsle_15(true_a, pred_a) + rmsle_15(true_b, pred_b)) / 2


def mcrmsle_old_spelling(true_a, true_b, pred_a, pred_b):
    return (rmsle_old_spelling(true_a, pred_a) + rmsle_old_spelling(true_b, pred_b)) / 2


def log1p_part(y_true, y_pred):
    """One RMSLE's tokens for the test's bound on kernel moves. The logs here
    are Python's math.log1p (glibc's, on every CPU): they only size the bound."""
    t = np.asarray(check_array(y_true, ensure_2d=False, dtype="numeric"), dtype=np.float64)
    p = np.asarray(check_array(y_pred, ensure_2d=False, dtype="numeric"), dtype=np.float64)
    largest, widest, unequal = 0.0, 0.0, 0
    for a, b in zip(t.tolist(), p.tolist()):
        la = math.log1p(a) if math.isfinite(a) else 0.0
        lb = math.log1p(b) if math.isfinite(b) else 0.0
        largest = max(largest, abs(la), abs(lb))
        if a != b:
            unequal += 1
            widest = max(widest, abs(la - lb))
    return (f"{fhex(rmsle_15(y_true, y_pred))} {fhex(largest)} {fhex(widest)} {unequal} "
            f"{len(t)}")


def write_outcome(reference, direct, *args, parts=()):
    try:
        value = reference(*args)
    except Exception as e:  # every exception counts: upstream turns them all into "invalid"
        lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
        return
    try:
        other = fhex(direct(*args))
    except Exception:
        other = "-"
    lines.append(" ".join([f"ok {fhex(value)} {other}"] + [log1p_part(*part) for part in parts]))


def pair(nonnegative):
    n = size()
    kind_true = str(rng.choice(TRUE_KINDS))
    kind_pred = str(rng.choice(PRED_KINDS))
    if nonnegative and kind_true == "bool" and kind_pred == "bool":
        kind_pred = "float"  # two bools: float16 arithmetic, not reproduced
    y_true = column(kind_true, n, nonnegative)
    y_pred = column(kind_pred, n, nonnegative)
    if y_true.dtype == np.float64 and y_pred.dtype == np.float64 and rng.random() < 0.2:
        exact = rng.random(n) < 0.5  # some exact predictions
        y_pred[exact] = y_true[exact]
    if rng.random() < 0.03:
        y_pred = y_pred[: max(0, n - 1)]
    if rng.random() < 0.01:
        y_true, y_pred = y_true[:0], y_pred[:0]
    return y_true, y_pred


def rmse_case(index):
    y_true, y_pred = pair(nonnegative=False)
    lines.append(f"case rmse {index}")
    write_column(y_true)
    write_column(y_pred)
    write_outcome(rmse_15, rmse_old_spelling, y_true, y_pred)


def rmsle_case(index):
    y_true, y_pred = pair(nonnegative=True)
    lines.append(f"case rmsle {index}")
    write_column(y_true)
    write_column(y_pred)
    write_outcome(rmsle_15, rmsle_old_spelling, y_true, y_pred, parts=[(y_true, y_pred)])


def mcrmsle_case(index):
    true_a, pred_a = pair(nonnegative=True)
    true_b, pred_b = pair(nonnegative=True)
    lines.append(f"case mcrmsle {index}")
    for arr in (true_a, true_b, pred_a, pred_b):
        write_column(arr)
    write_outcome(mcrmsle_15, mcrmsle_old_spelling, true_a, true_b, pred_a, pred_b,
                  parts=[(true_a, pred_a), (true_b, pred_b)])


for count, make in ((700, rmse_case), (700, rmsle_case), (300, mcrmsle_case)):
    for i in range(count):
        if i < 2:
            BIG_SIZES.append(100_000 if i == 0 else 20_000)
        make(i)

with open(out_path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))
    f.write("\n")
