"""Random inputs for our C++ LaplaceLogLikelihood, with upstream's outcome.

Run by laplace_log_likelihood_diff_test (a cc_test) as
  python3 laplace_log_likelihood_diff_test.py OUT_FILE [SEED]
The reference restates osic-pulmonary-fibrosis-progression's
laplace_log_likelihood with numpy on float64 arrays.

Format, one token list per line:
  case <index>
  arr <n> <float.hex()>...      (actual, predicted, confidence)
  ok <value> <largest |log term|> <largest |term|> <terms>  (floats as float.hex())
  | raise <class> <message as UTF-8 hex>
"""

import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")


def reference(actual, predicted, confidence):
    sd_clipped = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(actual - predicted), 1000)
    logs = np.log(np.sqrt(2) * sd_clipped)
    metric = -np.sqrt(2) * delta / sd_clipped - logs
    return float(np.mean(metric)), largest_finite(logs), largest_finite(metric), metric.size


def largest_finite(values):
    """The largest finite |value| (0.0 if none): it sizes the test's bound on
    how far numpy's SIMD log can move the mean."""
    finite = np.abs(np.asarray(values, dtype=np.float64).ravel())
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if finite.size else 0.0


def main():
    out_path = sys.argv[1]
    rng = np.random.default_rng(int(sys.argv[2]) if len(sys.argv) > 2 else 20261201)
    big = [100_000, 20_000, 8193]
    lines = []
    for index in range(1500):
        n = big.pop() if big else int(rng.integers(1, 60) if rng.random() < 0.85 else rng.integers(60, 5000))
        actual = np.round(rng.normal(2700, 800, n))
        predicted = actual + rng.normal(0, 10.0 ** int(rng.integers(0, 4)), n)
        confidence = np.abs(rng.normal(0, 10.0 ** int(rng.integers(0, 4)), n))
        if rng.random() < 0.3:
            confidence = np.round(confidence)
        for arr in (predicted, confidence):
            if rng.random() < 0.05:
                arr[rng.integers(0, n)] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -5.0, 1e308])
        r = rng.random()
        if r < 0.03:
            predicted, confidence = predicted[:1], confidence[:1]  # broadcasts
        elif r < 0.06:
            actual = actual[:1]
        elif r < 0.09:
            predicted, confidence = predicted[: n // 2], confidence[: n // 2]
        elif r < 0.1:
            actual, predicted, confidence = actual[:0], predicted[:0], confidence[:0]
        lines.append(f"case {index}")
        for arr in (actual, predicted, confidence):
            lines.append(f"arr {len(arr)} " + " ".join(float(v).hex() for v in arr))
        try:
            value, logs, terms, n = reference(actual, predicted, confidence)
            lines.append(f"ok {value.hex()} {logs.hex()} {terms.hex()} {n}")
        except Exception as e:  # every exception counts: upstream turns them all into "invalid"
            lines.append(f"raise {type(e).__name__} {str(e).encode().hex()}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        f.write("\n")


if __name__ == "__main__":
    main()
