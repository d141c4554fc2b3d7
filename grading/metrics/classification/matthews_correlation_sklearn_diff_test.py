"""Random label columns for our C++ MatthewsCorrCoef, scored by
sklearn.metrics.matthews_corrcoef.

Run by matthews_correlation_sklearn_diff_test as
  python3 matthews_correlation_sklearn_diff_test.py OUT_FILE

Each case is one line "<csv hex> ok <float.hex()>" or "<csv hex> raise",
where the CSV has columns t (y_true) and p (y_pred) as pandas reads them.
The reference is scikit-learn 1.5.1 (upstream's pinned version, from the
reference environment).
"""

import io
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import matthews_corrcoef

warnings.simplefilter("ignore")


def column(rng, n, kind, truth):
    if kind == "copy":
        return [str(v) for v in truth]
    if kind == "noisy":
        flip = rng.random(n) < rng.random()
        return [str(1 - int(v)) if f else str(v) for v, f in zip(truth, flip)]
    if kind == "binary":
        return [str(v) for v in rng.integers(0, 2, n)]
    if kind == "multi":
        return [str(v) for v in rng.integers(0, 4, n)]
    if kind == "float":
        return [f"{v:.1f}" for v in rng.integers(0, 2, n)]
    if kind == "half":
        return [str(v) for v in rng.choice([0.0, 0.5, 1.0], n)]
    if kind == "text":
        return [str(v) for v in rng.choice(["a", "b", "c"], n)]
    if kind == "bool":
        return [str(v) for v in rng.choice(["True", "False"], n)]
    if kind == "const":
        return ["0"] * n
    if kind == "nan":
        out = [str(v) for v in rng.integers(0, 2, n)]
        out[int(rng.integers(0, n))] = ""
        return out
    raise ValueError(kind)


def main():
    rng = np.random.default_rng(20261129)
    sizes = [1, 2, 3, 100_000, 20_000] + [int(rng.integers(1, 2000)) for _ in range(300)]
    kinds = ["copy", "noisy", "binary", "multi", "float", "half", "text", "bool", "const", "nan"]
    lines = []
    for n in sizes:
        truth = rng.integers(0, 2, n) if rng.random() < 0.8 else rng.integers(0, 3, n)
        kind = kinds[int(rng.integers(0, len(kinds)))]
        if kind == "noisy" and truth.max() > 1:
            kind = "copy"
        pred = column(rng, n, kind, truth)
        text = "t,p\n" + "".join(f"{t},{p}\n" for t, p in zip(truth, pred))
        frame = pd.read_csv(io.StringIO(text))
        try:
            value = float(matthews_corrcoef(frame["t"], frame["p"]))
            result = f"ok {value.hex()}"
        except (ValueError, TypeError):
            result = "raise"
        lines.append(f"{text.encode().hex()} {result}")
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
