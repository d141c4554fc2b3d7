"""Random inputs for our C++ LabelRankingAveragePrecision, with scikit-learn's outcome.

Run by label_ranking_average_precision_sklearn_diff_test (a cc_test) as
  python3 label_ranking_average_precision_sklearn_diff_test.py OUT_FILE [SEED]

The reference is scikit-learn 1.5.1's label_ranking_average_precision_score
(upstream's pinned version, from the reference environment).

Format, one token list per line:
  case lrap <index> <n_samples> <n_labels> <weights: none|given>
  true <n_samples * n_labels digits 0/1, row-major>
  score <float.hex()>...            (row-major)
  weight <float.hex()>...           (only when given)
  ok <value as float.hex()>   |   raise <exception class> <message as UTF-8 hex>
"""

import sys
import warnings

import numpy as np
from sklearn.metrics import label_ranking_average_precision_score

warnings.simplefilter("ignore")

SHAPES = [(100_000, 2), (2_000, 80), (1, 80)]


def main():
    out_path = sys.argv[1]
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 20261129)
    lines = []
    for index in range(800):
        if SHAPES:
            n, m = SHAPES.pop()
        else:
            n = int(rng.integers(1, 40)) if rng.random() < 0.85 else int(rng.integers(40, 400))
            m = int(rng.choice([1, 2, 3, 5, 8, 9, 17, 80]))
        rate = float(rng.choice([0.05, 0.3, 0.6, 0.95]))
        y_true = (rng.random((n, m)) < rate)
        kind = rng.choice(["float", "float", "ties", "ties", "int", "const"])
        if kind == "float":
            y_score = rng.random((n, m))
        elif kind == "ties":
            y_score = np.round(rng.random((n, m)), 1) * float(rng.choice([1, -3, 1e6]))
        elif kind == "int":
            y_score = rng.integers(-2, 3, (n, m)).astype(np.float64)
        else:
            y_score = np.full((n, m), 0.5)
        if rng.random() < 0.05:
            y_score[int(rng.integers(0, n)), int(rng.integers(0, m))] = rng.choice(
                [np.nan, np.inf, -np.inf])
        weights = None
        r = rng.random()
        if r < 0.4:
            weights = y_true.sum(axis=1).astype(np.float64)  # upstream's weighting
        elif r < 0.6:
            weights = rng.random(n) * 3
        elif r < 0.63:
            weights = rng.random(n + 1)
        lines.append(f"case lrap {index} {n} {m} {'none' if weights is None else 'given'}")
        lines.append("true " + "".join("1" if v else "0" for v in y_true.ravel()))
        lines.append("score " + " ".join(float(v).hex() for v in y_score.ravel()))
        if weights is not None:
            lines.append(f"weight {len(weights)} " + " ".join(float(v).hex() for v in weights))
        try:
            value = float(label_ranking_average_precision_score(y_true, y_score,
                                                                sample_weight=weights))
            lines.append(f"ok {value.hex()}")
        except Exception as e:
            lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
