"""Reference for kl_divergence_diff_test.cc.

Restates, with pandas and numpy, the Kaggle KL-divergence score that
upstream's hms-harmful-brain-activity-classification grader calls
(micro-averaged, no sample weights, epsilon 1e-15), including its
probability validation, clipping, zero-target convention and NaN-skipping
row sums, and writes random cases with the expected outcome.
Usage: kl_divergence_diff_test.py OUT_PATH
"""

import sys

import numpy as np
import pandas as pd


def check_probabilities(frame, label):
    if not pd.api.types.is_numeric_dtype(frame.values):
        raise ValueError(label + ": not numeric")
    if frame.min().min() < 0:
        raise ValueError(label + ": negative")
    if frame.max().max() > 1:
        raise ValueError(label + ": above one")
    if not np.allclose(frame.sum(axis=1), 1):
        raise ValueError(label + ": rows do not sum to one")


def reference_score(solution, submission, eps=1e-15):
    for name in solution.columns:
        if name not in submission.columns:
            raise KeyError(name)
    check_probabilities(solution, "solution")
    check_probabilities(submission, "submission")
    solution = solution.astype(float)
    submission = submission.copy()
    for name in solution.columns:
        p = np.clip(submission[name], eps, 1 - eps)
        if submission[name].dtype.kind == "i":
            # pandas' clip downcasts the clipped column back to int64 (1.5
            # and 2.2 alike), as upstream's restated metric sees it.
            assert p.dtype.kind == "i"
        y = solution[name]
        nonzero = y != 0
        loss = pd.Series(0.0, index=y.index)
        loss[nonzero] = y[nonzero] * np.log(y[nonzero] / p[nonzero])
        solution[name] = loss
    return np.average(solution.sum(axis=1))


def random_rows(rng, n, k, zero_share):
    values = rng.dirichlet(np.full(k, rng.choice([0.2, 1.0, 5.0])), size=n)
    zeros = rng.random((n, k)) < zero_share
    zeros[:, 0] &= ~zeros[:, 1:].all(axis=1)  # keep one nonzero per row
    values[zeros] = 0
    sums = values.sum(axis=1, keepdims=True)
    return values / sums


def main():
    rng = np.random.default_rng(20261129)
    sizes = [1, 1, 2, 3, 5, 8, 13, 50, 200, 1000, 5000, 100000]
    k = 6
    names = ["c%d" % i for i in range(k)]
    infinite_cases = 0
    with open(sys.argv[1], "w") as out:
        for case in range(200):
            n = sizes[case % len(sizes)] if case < 24 else int(rng.integers(1, 300))
            solution = random_rows(rng, n, k, rng.choice([0.0, 0.3, 0.7]))
            if rng.random() < 0.3:  # votes-like rationals
                votes = rng.integers(0, 5, size=(n, k))
                votes[:, 0] += votes.sum(axis=1) == 0
                solution = votes / votes.sum(axis=1, keepdims=True)
            submission = random_rows(rng, n, k, rng.choice([0.0, 0.2]))
            kind = case % 10
            if kind == 1:  # exact copy: zero loss up to clipping
                submission = solution.copy()
            elif kind == 2:  # NaN cells
                submission[rng.random((n, k)) < 0.2] = np.nan
            elif kind == 3 and rng.random() < 0.5:  # a negative or > 1 value
                submission[rng.integers(n), rng.integers(k)] = rng.choice([-1e-9, 1 + 1e-6, 2.0])
            elif kind == 4:  # rows off by a little or a lot
                submission = submission * rng.choice([1 + 5e-6, 1 + 2e-5, 0.5])
            elif kind == 5:  # predictions at 0 and 1
                submission = np.zeros((n, k))
                submission[np.arange(n), rng.integers(0, k, size=n)] = 1.0
            sub_names = list(names)
            extra = None
            if kind == 6:
                extra = np.zeros(n) if rng.random() < 0.5 else rng.random(n)
                sub_names.append("extra")
            if kind == 7 and rng.random() < 0.3:
                sub_names[int(rng.integers(k))] = "other"
            sub_frame = pd.DataFrame(submission, columns=sub_names[:k])
            if extra is not None:
                sub_frame["extra"] = extra
            if kind == 5 and rng.random() < 0.5:
                # int64 columns: pandas' clip casts them back to int, unclipped.
                sub_frame = sub_frame.astype("int64")
            sol_frame = pd.DataFrame(solution, columns=names)
            try:
                result = float(reference_score(sol_frame.copy(), sub_frame.copy()))
                infinite_cases += result == float("inf")
                result = result.hex()
            except (ValueError, KeyError):
                result = "raise"
            out.write("case %d %d\n" % (n, len(sub_frame.columns)))
            out.write(" ".join(sub_frame.columns) + "\n")
            out.write(" ".join(str(t.kind) for t in sub_frame.dtypes) + "\n")
            both = np.hstack([solution, sub_frame.to_numpy(dtype=float)])
            hexed = [float.hex(v) for v in both.ravel().tolist()]
            width = both.shape[1]
            out.write("".join(" ".join(hexed[r * width:(r + 1) * width]) + "\n"
                              for r in range(n)))
            out.write(result + "\n")
    assert infinite_cases > 0, "no case with int64 zeros against nonzero targets"


if __name__ == "__main__":
    main()
