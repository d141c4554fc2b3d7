"""Random inputs for our C++ TripHaversineScore, with a numpy restatement of
upstream's calc_score (smartphone-decimeter-2022/notebook.py).

Run by haversine_numpy_diff_test as
  python3 haversine_numpy_diff_test.py OUT_FILE

Format, one case after another: "case <n>", then four lines of float.hex()
values (predicted latitude, predicted longitude, true latitude, true
longitude, in degrees), then "ok <float.hex()>".
"""

import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")


def reference(pred_lat, pred_lng, true_lat, true_lng):
    # Upstream's steps: degrees to radians, the haversine formula on a
    # 6,371,000 m sphere, then the mean of the 50th and 95th percentiles.
    lat1, lng1 = np.deg2rad(pred_lat), np.deg2rad(pred_lng)
    lat2, lng2 = np.deg2rad(true_lat), np.deg2rad(true_lng)
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lng2 - lng1) / 2) ** 2
    d = 2 * 6_371_000 * np.arcsin(np.sqrt(a))
    return np.mean([np.quantile(d, 0.50), np.quantile(d, 0.95)])


def main():
    rng = np.random.default_rng(20261129)
    sizes = [1, 2, 3, 20, 21, 100_000, 30_001] + [int(rng.integers(1, 3000)) for _ in range(300)]
    lines = []
    for n in sizes:
        true_lat = rng.uniform(-90, 90, n)
        true_lng = rng.uniform(-180, 180, n)
        kind = rng.random()
        if kind < 0.4:  # decimetre-to-kilometre errors, as real predictions
            scale = 10.0 ** float(rng.uniform(-7, -1))  # Python float pow: numpy's is CPU-dependent
            pred_lat = true_lat + rng.normal(size=n) * scale
            pred_lng = true_lng + rng.normal(size=n) * scale
        elif kind < 0.5:  # exact copies: zero distances
            pred_lat, pred_lng = true_lat.copy(), true_lng.copy()
        elif kind < 0.6:  # one constant guess, as the sample submission
            pred_lat = np.full(n, 37.904611315634504)
            pred_lng = np.full(n, -86.48107806249548)
        elif kind < 0.65:  # antipodes and out-of-range degrees
            pred_lat = -true_lat + rng.integers(-2, 3, n) * 360.0
            pred_lng = true_lng + 180.0
        elif kind < 0.7 and n > 1:  # a missing prediction makes the score NaN
            pred_lat = rng.uniform(-90, 90, n)
            pred_lng = rng.uniform(-180, 180, n)
            pred_lat[int(rng.integers(0, n))] = np.nan
        else:
            pred_lat = rng.uniform(-90, 90, n)
            pred_lng = rng.uniform(-180, 180, n)
        value = float(reference(pred_lat, pred_lng, true_lat, true_lng))
        lines.append(f"case {n}")
        for arr in (pred_lat, pred_lng, true_lat, true_lng):
            lines.append(" ".join(float(v).hex() for v in arr))
        lines.append(f"ok {value.hex()}")
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
