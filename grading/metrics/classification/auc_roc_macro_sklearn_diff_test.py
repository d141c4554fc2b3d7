"""Random multi-label inputs for MacroRocAucScore / CheckMacroRocAucTrue.

Run by auc_roc_macro_sklearn_diff_test (a cc_test) as
  python3 auc_roc_macro_sklearn_diff_test.py OUT_FILE [SEED]
Shapes are those of upstream's multi-label graders (2 columns as in
playground-series-s3e18, 6 as in jigsaw-toxic-comment-classification-challenge,
and others), 1 to 1e5 rows, with rare classes, heavy ties, all-equal columns,
{-1, 1} labels and broken inputs (one-class columns, labels 2 or 0.5, NaN,
inf, extra score columns, row-count mismatches), scored by scikit-learn 1.5.1
(upstream's pinned version, from the reference environment) and compared bit
for bit (1.5.1 raises on a one-class column; 1.6 would score it NaN). Not
generated: a y_score with fewer columns than y_true,
which sklearn silently scores on those columns only and MacroRocAucScore
rejects by design.

Per case, lines:
  case <index>
  mat <rows> <cols> <float.hex()>...     y_true
  mat <rows> <cols> <float.hex()>...     y_score
  ok <value float.hex()> | raise <exception class> <message as UTF-8 hex>
  labels ok | labels raise              sklearn on y_true with clean scores
"""

import sys
import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

warnings.simplefilter("ignore")

out_path = sys.argv[1]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20240612
rng = np.random.default_rng(seed)
lines = []
BIG = [100_000, 30_000, 10_000]


def mat(m):
    return f"mat {m.shape[0]} {m.shape[1]} " + " ".join(float(v).hex() for v in m.ravel())


def outcome(y, s):
    try:
        return ("ok", float(roc_auc_score(y, s, average="macro")))
    except Exception as e:  # upstream counts every exception
        return ("raise", type(e).__name__, str(e))


def labels(n, k):
    rates = rng.uniform(0.002, 0.6, k) if rng.random() < 0.5 else rng.uniform(0.2, 0.8, k)
    y = (rng.random((n, k)) < rates).astype(np.float64)
    # Make both classes appear in each column most of the time.
    if n >= 2 and rng.random() < 0.9:
        y[0] = 0.0
        y[1] = 1.0
        perm = rng.permutation(n)
        y = y[perm]
    if rng.random() < 0.2:
        y = np.where(y == 0, -1.0, 1.0)
    r = rng.random()
    if r < 0.05:
        y[:, rng.integers(0, k)] = rng.integers(0, 2)  # one class in a column
    elif r < 0.08:
        y[rng.integers(0, n), rng.integers(0, k)] = 2.0
    elif r < 0.10:
        y[rng.integers(0, n), rng.integers(0, k)] = 0.5
    elif r < 0.12:
        y[rng.integers(0, n), rng.integers(0, k)] = rng.choice([np.nan, np.inf])
    elif r < 0.13:
        y = y * 3.0  # {0, 3}: pos_label needed
    return y


def scores(n, k, y):
    r = rng.random()
    if r < 0.05:  # all equal in one column, heavy ties elsewhere
        s = rng.integers(0, 3, (n, k)) / 2.0
        s[:, rng.integers(0, k)] = 0.5
    elif r < 0.3:
        s = rng.integers(0, int(rng.integers(1, 6)), (n, k)) / 4.0
    elif r < 0.7:  # informative: higher on positives
        s = rng.random((n, k)) + rng.uniform(0, 1.5) * (y > 0)
    else:
        s = rng.normal(size=(n, k)) * 10.0 ** rng.integers(-3, 4)
    if rng.random() < 0.06:
        s[rng.integers(0, n), rng.integers(0, k)] = rng.choice([np.nan, np.inf, -np.inf])
    return s


for index in range(400):
    n = BIG.pop() if BIG else (int(rng.integers(1, 60)) if rng.random() < 0.8
                               else int(rng.integers(60, 3000)))
    k = int(rng.choice([2, 2, 6, 6, 3, 4]))
    y = labels(n, k)
    s = scores(n, k, y)
    r = rng.random()
    if r < 0.03:
        s = s[: max(n - 1, 0)]
    elif r < 0.05:
        s = np.hstack([s, rng.random((n, 1))])  # an extra score column: IndexError
    clean = rng.random((n, k))
    lines.append(f"case {index}")
    lines.append(mat(y))
    lines.append(mat(s))
    result = outcome(y, s)
    if result[0] == "ok":
        lines.append(f"ok {result[1].hex()}")
    else:
        lines.append(f"raise {result[1]} {result[2].encode().hex()}")
    lines.append("labels " + outcome(y, clean)[0])

with open(out_path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
