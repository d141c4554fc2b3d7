"""Reference side of random_numpy_diff_test: numpy's RandomState and
scikit-learn's train_test_split on the cases the C++ test writes.

Usage: random_numpy_diff_test.py CASES OUT. Each line of CASES is one case;
the matching line of OUT holds the reference result (space-separated ints,
floats as float.hex()), or "ERROR" if the reference raised.
"""

import sys

import numpy as np
from sklearn.model_selection import train_test_split


def parse_size(token):
    if token == "None":
        return None
    kind, value = token.split(":", 1)
    return float.fromhex(value) if kind == "f" else int(value)


def run(fields):
    kind, seed = fields[0], int(fields[1])
    rng = np.random.RandomState(seed)
    if kind == "perm":
        return " ".join(map(str, rng.permutation(int(fields[2])).tolist()))
    if kind == "sample":
        return " ".join(x.hex() for x in rng.random_sample(int(fields[2])).tolist())
    if kind == "randint":
        low, high, count = int(fields[2]), int(fields[3]), int(fields[4])
        return " ".join(map(str, rng.randint(low, high, size=count).tolist()))
    if kind == "split":
        n = int(fields[2])
        train, test = train_test_split(
            np.arange(n),
            test_size=parse_size(fields[3]),
            train_size=parse_size(fields[4]),
            random_state=seed,
        )
        return " ".join(map(str, train.tolist())) + " | " + " ".join(map(str, test.tolist()))
    raise SystemExit(f"unknown case kind {kind!r}")


def main():
    cases_path, out_path = sys.argv[1], sys.argv[2]
    with open(cases_path) as cases, open(out_path, "w") as out:
        for line in cases:
            try:
                result = run(line.split())
            except ValueError:
                result = "ERROR"
            out.write(result + "\n")


if __name__ == "__main__":
    main()
