"""Random inputs for our C++ WeightedMultilabelLogLoss, with a numpy restatement's value.

Run by weighted_multilabel_log_loss_diff_test (a cc_test) as
  python3 weighted_multilabel_log_loss_diff_test.py OUT_FILE [SEED]

The reference restates rsna-2022-cervical-spine-fracture-detection's
custom_comp_weighted_loss with numpy, on matrices built as upstream builds
them (a pivoted DataFrame's to_numpy()), float32 competition weights
included.

Format, one token list per line:
  case wmll <index> <n_rows>
  true <n_rows * 8 tokens: float.hex()>     (row-major)
  pred <n_rows * 8 tokens: float.hex()>
  ok <value as float.hex()>
"""

import sys
import warnings

import numpy as np
import pandas as pd

warnings.simplefilter("ignore")

COLUMNS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def reference(y_true, y_pred):
    negative = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=np.float32)
    positive = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=np.float32)
    p = np.clip(y_pred, 1e-15, 1 - 1e-15)
    loss = -(y_true * np.log(p) + (1 - y_true) * np.log(1 - p))
    weights = y_true * positive + (1 - y_true) * negative
    return np.mean(np.sum(loss * weights, axis=1) / weights.sum(axis=1))


def main():
    out_path = sys.argv[1]
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 20261129)
    sizes = [100_000, 3000, 1]
    lines = []
    for index in range(600):
        n = sizes.pop() if sizes else int(rng.integers(1, 300))
        truth = (rng.random((n, 8)) < rng.choice([0.1, 0.5])).astype(np.int64)
        kind = rng.choice(["uniform", "uniform", "extreme", "hard", "nan"])
        if kind == "uniform":
            pred = rng.random((n, 8))
        elif kind == "extreme":
            pred = rng.choice([0.0, 1.0, 1e-20, 1 - 1e-17, 0.5], size=(n, 8))
        elif kind == "hard":
            pred = truth.astype(np.float64)
        else:
            pred = rng.random((n, 8))
            pred[int(rng.integers(0, n)), int(rng.integers(0, 8))] = np.nan
        ids = [f"1.2.{i}" for i in range(n)]
        frame = lambda v: pd.DataFrame(v, columns=COLUMNS).assign(StudyInstanceUID=ids)
        y_true = frame(truth)[COLUMNS].to_numpy()
        y_pred = frame(pred)[COLUMNS].to_numpy()
        lines.append(f"case wmll {index} {n}")
        lines.append("true " + " ".join(float(v).hex() for v in truth.ravel()))
        lines.append("pred " + " ".join(float(v).hex() for v in pred.ravel()))
        lines.append(f"ok {float(reference(y_true, y_pred)).hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
