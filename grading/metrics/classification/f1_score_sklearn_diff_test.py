# Writes random multiclass (string and integer labels) and multilabel
# (MultiLabelBinarizer) cases with scikit-learn 1.5.1's results, for
# f1_score_sklearn_diff_test.cc. Per case, five lines:
#   case KIND AVERAGE BETA ZERO_DIVISION     KIND: s (strings), i (ints), ml
#   y_true tokens                            s: "x"+hex, i: decimal, ml: "r"+",".join(hex)
#   y_pred tokens
#   classes tokens ("x"+hex; ml only, else empty)
#   "err" | precision recall f_score f_score
# precision/recall/f_score are precision_recall_fscore_support of scikit-learn
# 1.5.1 (upstream's pinned version, from the reference environment), which
# computes F from the confusion counts (beta = 0 means "precision"). F is
# written twice, where the test once read sklearn 1.2's F (computed from
# precision and recall, Debian's) and a numpy restatement of 1.5's.
import random
import sys
import warnings

import numpy as np
from sklearn.metrics import precision_recall_fscore_support
from sklearn.preprocessing import MultiLabelBinarizer

warnings.filterwarnings("ignore")
rng = random.Random(20261129)

STRING_POOL = ["a", "b", "B", "", "ab", "a b", "\u00e9", "e\u0301", "\u4e2d", "\U0001F600",
               "z", "Z9", "label_10", "label_2", "x" * 30]


def hexs(s):
    return "x" + s.encode("utf-8").hex()


def random_size(case):
    if case < 6:  # two of each kind at full size
        return 100000 - case
    r = rng.random()
    if r < 0.9:
        return rng.randint(0, 40)
    if r < 0.99:
        return rng.randint(41, 1000)
    return rng.randint(1001, 5000)


def write_case(out, kind, average, beta, zd, y_true, y_pred, classes):
    try:
        if kind == "ml":
            mlb = MultiLabelBinarizer(classes=classes, sparse_output=True)
            yt = mlb.fit_transform(y_true)
            yp = mlb.transform(y_pred)
        else:
            yt, yp = y_true, y_pred
        p, r, f, _ = precision_recall_fscore_support(
            yt, yp, average=average, beta=beta, zero_division=zd)
        result = " ".join(repr(float(v)) for v in (p, r, f, f))
    except (ValueError, TypeError):
        result = "err"
    if kind == "s":
        enc = hexs
    elif kind == "i":
        enc = str
    else:
        enc = lambda row: "r" + ",".join(s.encode("utf-8").hex() for s in row)
    out.write(f"case {kind} {average} {beta!r} {zd}\n")
    out.write(" ".join(enc(v) for v in y_true) + "\n")
    out.write(" ".join(enc(v) for v in y_pred) + "\n")
    out.write((" ".join(hexs(c) for c in classes) if kind == "ml" else "") + "\n")
    out.write(result + "\n")


def random_options():
    average = rng.choice(["micro", "macro"])
    beta = rng.choice([1.0, 1.0, 1.0, 0.5, 2.0, 0.0, float("inf"), 0.3, -1.0])
    zd = rng.choice(["warn", "warn", 0, 1])
    if beta == 0.0 and zd == 1:
        zd = 0  # sklearn 1.2 and 1.5 define F0 differently for empty predictions.
    return average, beta, zd


def main():
    with open(sys.argv[1], "w") as out:
        for case in range(3000):
            average, beta, zd = random_options()
            n = random_size(case)
            kind = ["s", "i", "ml"][case % 3]
            if kind in ("s", "i"):
                if kind == "s":
                    pool = rng.sample(STRING_POOL, rng.randint(1, len(STRING_POOL)))
                else:
                    pool = rng.sample([-5, 0, 1, 2, 3, 7, 10, 11, 100, 2**40, -(2**35)],
                                      rng.randint(1, 11))
                y_true = [rng.choice(pool) for _ in range(n)]
                accuracy = rng.random()
                y_pred = [t if rng.random() < accuracy else rng.choice(pool) for t in y_true]
                if n and rng.random() < 0.2:  # a label only in the predictions
                    extra = "only_pred" if kind == "s" else 999
                    y_pred[rng.randrange(n)] = extra
                if rng.random() < 0.02:
                    y_pred = y_pred[:-1] if n else [pool[0]]
                classes = []
            else:
                n = max(n, 1)
                universe = rng.sample(STRING_POOL[:14] + ["t%d" % k for k in range(30)],
                                      rng.randint(1, 30))
                universe = [u for u in universe if u and " " not in u] or ["t0"]
                classes = rng.sample(universe, min(len(universe), rng.randint(0, 20)))
                if classes and rng.random() < 0.03:
                    classes.append(classes[0])
                empty_rate = rng.random() * 0.5

                def row():
                    if rng.random() < empty_rate:
                        return []
                    return [rng.choice(universe) for _ in range(rng.randint(1, 4))]

                y_true = [row() for _ in range(n)]
                accuracy = rng.random()
                y_pred = [list(t) if rng.random() < accuracy else row() for t in y_true]
                if rng.random() < 0.02:
                    y_pred = y_pred[:-1]
            write_case(out, kind, average, beta, zd, y_true, y_pred, classes)


main()
