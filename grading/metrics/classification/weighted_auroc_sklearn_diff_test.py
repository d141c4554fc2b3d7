"""Usage: weighted_auroc_sklearn_diff_test.py <cases file> [seed]

Random cases for weighted_auroc_sklearn_diff_test: the ALASKA2 weighted AUC
of upstream's grade.py, restated with numpy and scikit-learn 1.5.1's
roc_curve and auc (upstream's pinned version, from the reference
environment).

Output, one case after another:
  case <n rows>
  t <labels, space-separated>
  s <scores, repr, space-separated>
  r <repr of the score> | e <exception class name>
"""
import random
import sys
import warnings

import numpy as np
from sklearn import metrics


def with_thresholds(fpr, tpr, wanted):
    fpr, tpr = list(fpr), list(tpr)
    for level in wanted:
        if level in tpr:
            continue
        above = next((i for i, t in enumerate(tpr) if t > level), None)
        if above is None:
            continue
        lo = above - 1
        x = fpr[lo] + (fpr[above] - fpr[lo]) * (level - tpr[lo]) / (tpr[above] - tpr[lo])
        tpr.insert(above, level)
        fpr.insert(above, x)
    return np.array(fpr), np.array(tpr)


def weighted_auc(y_true, y_pred):
    levels, weights = [0.0, 0.4, 1.0], [2, 1]
    fpr, tpr, _ = metrics.roc_curve(y_true, y_pred, pos_label=1)
    fpr, tpr = with_thresholds(fpr, tpr, levels)
    total = 0
    for k, weight in enumerate(weights):
        low, high = levels[k], levels[k + 1]
        band = (tpr >= low) & (tpr <= high)
        if not band.any():
            continue
        xs = np.append(fpr[band], 1)
        ys = np.append(tpr[band], high) - low
        total += metrics.auc(xs, ys) * weight
    return total / np.dot(np.array(levels[1:]) - np.array(levels[:-1]), weights)


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    sizes = [1, 2, 3, 4, 5, 7, 10, 20, 50, 100, 1000] * 30 + [10000, 100000]
    out = []
    for n in sizes:
        rate = rng.choice([0.0, 0.05, 0.3, 0.5, 0.9, 1.0])
        labels = [1 if rng.random() < rate else 0 for _ in range(n)]
        kind = rng.random()
        if kind < 0.3:
            scores = [rng.random() for _ in range(n)]
        elif kind < 0.6:  # many ties
            scores = [float(rng.randrange(4)) for _ in range(n)]
        elif kind < 0.8:  # informative
            scores = [y * rng.choice([0.5, 1.0, 2.0]) + rng.gauss(0, 1) for y in labels]
        else:
            scores = [round(rng.random(), 1) for _ in range(n)]
        special = rng.random()
        if special < 0.03 and n:
            scores[rng.randrange(n)] = float("nan")
        elif special < 0.06 and n:
            scores[rng.randrange(n)] = float("inf")
        elif special < 0.08 and n:
            labels[rng.randrange(n)] = 2
        elif special < 0.1 and n:
            labels[rng.randrange(n)] = 0.5
        out.append(f"case {n}")
        out.append("t " + " ".join(repr(float(v)) for v in labels))
        out.append("s " + " ".join(repr(float(v)) for v in scores))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.append("r " + repr(float(weighted_auc(np.array(labels, dtype=float), np.array(scores)))))
        except Exception as e:  # noqa: BLE001 - any raise is a failure upstream
            out.append("e " + type(e).__name__)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


main()
