"""Random inputs for our C++ MeanAngularError, with a numpy restatement of
upstream's angular_dist_score (icecube-neutrinos-in-deep-ice/grade.py).

Run by mean_angular_error_numpy_diff_test as
  python3 mean_angular_error_numpy_diff_test.py OUT_FILE

Format, one line each: "case <n>", then four lines of float.hex() values
(azimuth true, zenith true, azimuth pred, zenith pred), then "ok <float.hex()>".
"""

import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")


def reference(az_true, zen_true, az_pred, zen_pred):
    # Upstream's computation, step by step (sin/cos of each angle, the scalar
    # product of the unit vectors, clipped to [-1, 1], mean arccos).
    sa1, ca1, sz1, cz1 = np.sin(az_true), np.cos(az_true), np.sin(zen_true), np.cos(zen_true)
    sa2, ca2, sz2, cz2 = np.sin(az_pred), np.cos(az_pred), np.sin(zen_pred), np.cos(zen_pred)
    scalar_prod = sz1 * sz2 * (ca1 * ca2 + sa1 * sa2) + (cz1 * cz2)
    scalar_prod = np.clip(scalar_prod, -1, 1)
    return np.average(np.abs(np.arccos(scalar_prod)))


def main():
    rng = np.random.default_rng(20261129)
    sizes = [1, 2, 7, 100_000, 30_000, 8193, 8192] + [int(rng.integers(1, 3000)) for _ in range(300)]
    lines = []
    for n in sizes:
        az_true = rng.random(n) * 2 * np.pi
        zen_true = rng.random(n) * np.pi
        kind = rng.random()
        if kind < 0.3:  # near the truth: arccos close to 1, where clipping matters
            az_pred = az_true + rng.normal(size=n) * 1e-3
            zen_pred = zen_true + rng.normal(size=n) * 1e-3
        elif kind < 0.4:  # exact copies and full turns
            az_pred = az_true + 2 * np.pi * rng.integers(-2, 3, n)
            zen_pred = zen_true.copy()
        elif kind < 0.5:  # unbounded angles, as a submission may give
            az_pred = rng.normal(size=n) * 1e4
            zen_pred = rng.normal(size=n) * 1e4
        elif kind < 0.55:  # integer predictions (the sample submission's 1, 1)
            az_pred = np.ones(n)
            zen_pred = np.ones(n)
        else:
            az_pred = rng.random(n) * 2 * np.pi
            zen_pred = rng.random(n) * np.pi
        value = float(reference(az_true, zen_true, az_pred, zen_pred))
        lines.append(f"case {n}")
        for arr in (az_true, zen_true, az_pred, zen_pred):
            lines.append(" ".join(float(v).hex() for v in arr))
        lines.append(f"ok {value.hex()}")
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
