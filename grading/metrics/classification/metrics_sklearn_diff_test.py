"""Random inputs for our C++ metrics, with scikit-learn 1.5.1's outcome on each
(upstream's pinned version: the reference environment,
tools/python/requirements.lock).

Run by metrics_sklearn_diff_test (a cc_test) as
  python3 metrics_sklearn_diff_test.py OUT_FILE [SEED]
It writes one case per block of lines (format below); the C++ test replays
each case through AccuracyScore / RocAucScore / MacroRocAucScore / LogLoss and
compares. (Until 2026-12-02 this ran on Debian's scikit-learn 1.2.1, whose
log_loss renormalises every row of y_pred by its sum, and carried numpy
restatements of 1.5's log_loss and roc_auc_score; the real 1.5.1 answers now.)

Format, one token list per line:
  case <metric> <index>
  col <dtype> <n> <cell>...        (accuracy: y_true, then y_pred)
  vec <n> <float>...               (auc: y_true, then y_score)
  mat <rows> <cols> <1d> <float>...  (auc_macro, log_loss: y_true, then y_pred)
  ok <sklearn value>
  raise <exception class> <message as UTF-8 hex>
Cells: i:<int> f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing). Floats are
float.hex(), which C's strtod reads back exactly.
"""

import sys
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, log_loss, roc_auc_score

warnings.simplefilter("ignore")

out_path = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20240611
rng = np.random.default_rng(seed)
lines = []


def fhex(x):
    return float(x).hex()


BIG_SIZES = []  # set per case by the loops at the bottom: a few cases of 1e4..1e5 rows


def size():
    """Mostly small sizes, some medium; the big ones come from BIG_SIZES."""
    if BIG_SIZES:
        return BIG_SIZES.pop()
    if rng.random() < 0.88:
        return int(rng.integers(1, 60))
    return int(rng.integers(60, 2000))


def outcome(fn, *args):
    try:
        return ("ok", float(fn(*args)))
    except Exception as e:  # every exception counts: upstream turns them all into "invalid"
        return ("raise", type(e).__name__, str(e))


def write_outcome(result, extra=None):
    if result[0] == "ok":
        tail = "" if extra is None else " " + " ".join(extra)
        lines.append(f"ok {fhex(result[1])}{tail}")
    else:
        lines.append(f"raise {result[1]} {result[2].encode().hex()}")


# ---------------------------------------------------------------- accuracy

STRINGS = ["True", "False", "yes", "no", "maybe", "a", "é", ""]


def object_array(values):
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        arr[i] = v
    return arr


def label_column(kind, n, base=None):
    """A column as pandas' read_csv could give it, as its .to_numpy()."""
    if kind == "bool":
        return rng.random(n) < 0.5
    if kind == "int01":
        return rng.integers(0, 2, n).astype(np.int64)
    if kind == "int3":
        return rng.integers(0, 3, n).astype(np.int64)
    if kind == "int57":
        return rng.choice(np.array([5, 7], dtype=np.int64), n)
    if kind == "float_int":
        return rng.choice(np.array([0.0, 1.0, -0.0]), n)
    if kind == "float_frac":
        a = rng.integers(0, 2, n).astype(np.float64)
        a[rng.integers(0, n)] = 0.5
        return a
    if kind == "float_nonfinite":
        a = rng.integers(0, 2, n).astype(np.float64)
        a[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf])
        if rng.random() < 0.5:
            a[rng.integers(0, n)] = 0.25
        return a
    if kind == "float_big":
        a = rng.integers(0, 2, n).astype(np.float64)
        a[rng.integers(0, n)] = rng.choice([1e300, -(2.0**63), 2.0**63])
        return a
    if kind == "str2":
        pair = rng.choice(STRINGS, 2, replace=False)
        return object_array([str(s) for s in rng.choice(pair, n)])
    if kind == "str3":
        return object_array([str(s) for s in rng.choice(STRINGS[:5], n)])
    if kind == "str_nan":
        vals = [str(s) for s in rng.choice(STRINGS[:4], n)]
        vals[int(rng.integers(0, n))] = np.nan
        return object_array(vals)
    if kind == "bool_nan":
        vals = [bool(b) for b in rng.random(n) < 0.5]
        vals[int(rng.integers(0, n))] = np.nan
        return object_array(vals)
    if kind == "str_int":  # pandas' chunked reading can mix numbers into text
        vals = [str(s) for s in rng.choice(STRINGS[:3], n)]
        vals[int(rng.integers(0, n))] = int(rng.integers(0, 2))
        return object_array(vals)
    raise ValueError(kind)


ACCURACY_KINDS = ["bool", "int01", "int3", "int57", "float_int", "float_frac", "float_nonfinite",
                  "float_big", "str2", "str3", "str_nan", "bool_nan", "str_int"]


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


def accuracy_case(index):
    n = size()
    kind_true = rng.choice(ACCURACY_KINDS[:5] + ["str2", "str3"])
    kind_pred = rng.choice(ACCURACY_KINDS)
    y_true = label_column(kind_true, n)
    y_pred = label_column(kind_pred, n)
    if kind_true == kind_pred and rng.random() < 0.7:  # realistic, partly right predictions
        keep = rng.random(n) < rng.random()
        y_pred = np.where(keep, y_true, y_pred).astype(y_true.dtype)
    if rng.random() < 0.03:
        y_pred = y_pred[: max(0, n - 1)]
    if rng.random() < 0.01:
        y_true, y_pred = y_true[:0], y_pred[:0]
    lines.append(f"case accuracy {index}")
    for arr in (y_true, y_pred):
        dtype, toks = encode_column(arr)
        lines.append(f"col {dtype} {len(toks)} " + " ".join(toks))
    write_outcome(outcome(accuracy_score, y_true, y_pred))


# ---------------------------------------------------------------- roc auc

def auc_labels(n):
    r = rng.random()
    if r < 0.6:
        labels = np.array(rng.choice([[0, 1], [-1, 1], [3, 7]]), dtype=np.float64)
        return labels[(rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)]
    if r < 0.7:
        return np.full(n, float(rng.integers(0, 2)))  # one class
    if r < 0.8:
        return rng.integers(0, 3, n).astype(np.float64)  # multiclass
    y = rng.integers(0, 2, n).astype(np.float64)
    y[rng.integers(0, n)] = rng.choice([0.5, np.nan, np.inf])  # continuous / non-finite
    return y


def auc_scores(n):
    r = rng.random()
    if r < 0.35:
        s = rng.integers(0, int(rng.integers(1, 6)), n) / 4.0  # heavy ties
    elif r < 0.40:
        s = np.full(n, rng.choice([0.0, 0.5, -3.0]))  # all equal
    elif r < 0.47:  # signed zeros (one threshold) and neighbouring floats
        s = rng.choice(np.array([-0.0, 0.0, 5e-324, -5e-324, 0.5, np.nextafter(0.5, 1.0),
                                 1.0, np.nextafter(1.0, 0.0), -1e300, 1e300]), n)
    elif r < 0.8:
        s = rng.random(n)
    else:
        s = rng.normal(size=n) * 10.0 ** int(rng.integers(-3, 4))  # Python pow: CPU-independent
    if rng.random() < 0.05:
        s[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf])
    return s


def write_auc_case(index, y, s):
    lines.append(f"case auc {index}")
    for arr in (y, s):
        lines.append(f"vec {len(arr)} " + " ".join(fhex(v) for v in arr))
    result = outcome(roc_auc_score, y, s)
    write_outcome(result)
    return result


def auc_case(index):
    n = size()
    y, s = auc_labels(n), auc_scores(n)
    if rng.random() < 0.03:
        s = s[: n - 1]
    if rng.random() < 0.01:
        y, s = y[:0], s[:0]
    write_auc_case(index, y, s)


def auc_fixed_cases():
    """Long inputs of each score kind, and the rounding tie upstream hit."""
    for i, (n, kind) in enumerate([(100_000, "distinct"), (100_000, "ties"), (60_000, "zeros"),
                                   (30_000, "equal"), (9_000, "distinct")]):
        y = (rng.random(n) < rng.uniform(0.02, 0.5)).astype(np.float64)
        if kind == "distinct":
            s = rng.random(n)
        elif kind == "ties":
            s = rng.integers(0, 50, n) / 49.0
        elif kind == "zeros":
            s = rng.choice(np.array([-0.0, 0.0, 5e-324, 1.0]), n)
        else:
            s = np.full(n, 0.5)
        write_auc_case(f"long_{kind}_{i}", y, s)
    # random-acts-of-pizza's finding: 40 rows, 16 positives, exact AUC
    # 186/384 = 0.484375; sklearn returns one ulp less, which Python's
    # round(_, 5) takes to 0.48437 (the exact value would give 0.48438).
    y = np.array([1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1,
                  0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0], dtype=np.float64)
    s = np.array([0.81, 0.6, 0.41, 0.42, 0.72, 0.7, 0.13, 0.09, 0.16, 1.0,
                  0.04, 0.91, 0.44, 0.77, 0.44, 0.86, 0.99, 0.58, 0.98, 0.88,
                  0.27, 0.57, 0.6, 0.43, 0.76, 0.98, 0.31, 0.08, 0.61, 0.06,
                  0.4, 0.13, 0.69, 0.69, 0.35, 0.47, 0.76, 0.45, 0.92, 0.3])
    result = write_auc_case("rounding_tie", y, s)
    assert result == ("ok", 0.48437499999999994), result
    assert (round(result[1], 5), round(0.484375, 5)) == (0.48437, 0.48438)


def matrix_line(m, one_dimensional):
    m2 = m.reshape(len(m), m.shape[1] if m.ndim == 2 else 1)
    return f"mat {m2.shape[0]} {m2.shape[1]} {int(one_dimensional)} " + " ".join(
        fhex(v) for v in m2.ravel())


def auc_macro_case(index):
    n = min(size(), 20_000)
    k = int(rng.integers(2, 5))
    Y = (rng.random((n, k)) < rng.uniform(0.1, 0.9)).astype(np.float64)
    if rng.random() < 0.3:
        Y = np.where(Y == 0, -1.0, 1.0)
    if rng.random() < 0.1:
        Y[rng.integers(0, n), rng.integers(0, k)] = rng.choice([2.0, 0.5, np.nan])
    S = rng.integers(0, 5, (n, k)) / 4.0 if rng.random() < 0.5 else rng.random((n, k))
    lines.append(f"case auc_macro {index}")
    lines.append(matrix_line(Y, False))
    lines.append(matrix_line(S, False))
    write_outcome(outcome(roc_auc_score, Y, S))


# ---------------------------------------------------------------- log loss

def probabilities(n, k, normalised):
    if normalised:
        p = rng.dirichlet(np.full(k, rng.uniform(0.2, 3.0)), n)
    else:
        p = rng.random((n, k)) * rng.uniform(0.1, 2.0)
    if rng.random() < 0.2:  # exact zeros and ones: clipping
        p[rng.random((n, k)) < 0.1] = 0.0
        row = rng.integers(0, n)
        p[row] = 0.0
        p[row, rng.integers(0, k)] = 1.0
    if normalised:
        p[p.sum(axis=1) == 0, 0] = 1.0
        p = p / p.sum(axis=1, keepdims=True)
    return p


def log_loss_case(index):
    n = size()
    r = rng.random()
    normalised = rng.random() < 0.6
    true_1d = pred_1d = False
    if r < 0.55:  # one-hot indicator, the upstream case
        k = int(rng.integers(2, 6))
        y = np.zeros((n, k), dtype=np.int64)
        y[np.arange(n), rng.integers(0, k, n)] = 1
        p = probabilities(n, k, normalised)
        if rng.random() < 0.05:
            y = y.astype(np.float64)
            y[rng.integers(0, n), rng.integers(0, k)] = rng.choice([2.0, 0.5, np.nan])
        if rng.random() < 0.05:
            p = p[:, : k - 1] if k > 2 else p
        if rng.random() < 0.05:
            p[rng.integers(0, n), rng.integers(0, p.shape[1])] = rng.choice([np.nan, np.inf])
    elif r < 0.85:  # binary labels, 1-D positive-class probabilities
        labels = np.array(rng.choice([[0, 1], [-1, 1], [3, 7]]))
        y = labels[(rng.random(n) < rng.uniform(0.05, 0.95)).astype(int)]
        if rng.random() < 0.1:
            y = np.full(n, labels[1])  # a single label
        p = rng.random(n)
        if rng.random() < 0.2:
            p[rng.random(n) < 0.2] = rng.choice([0.0, 1.0])
        true_1d = pred_1d = True
        normalised = True  # [1 - p, p] sums to one up to rounding
    else:  # multi-class labels with a probability matrix (or a 1-D one: mismatch)
        k = int(rng.integers(2, 5))
        y = rng.integers(0, k, n)
        true_1d = True
        if rng.random() < 0.2:
            p = rng.random(n)
            pred_1d = True
            normalised = True
        else:
            p = probabilities(n, k, normalised)
    if rng.random() < 0.03:
        p = p[: n - 1]
    lines.append(f"case log_loss {index}")
    lines.append(matrix_line(np.asarray(y, dtype=np.float64), true_1d))
    lines.append(matrix_line(np.asarray(p, dtype=np.float64), pred_1d))
    write_outcome(outcome(log_loss, y, p))


for count, make in ((700, accuracy_case), (600, auc_case), (120, auc_macro_case),
                    (600, log_loss_case)):
    for i in range(count):
        if i < 2:
            BIG_SIZES.append(100_000 if i == 0 else 20_000)
        make(i)
    if make is auc_case:
        auc_fixed_cases()

with open(out_path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))
    f.write("\n")
