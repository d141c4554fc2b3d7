"""Usage: map_at_k_diff_test.py <cases file> [seed]

Random cases for map_at_k_diff_test: upstream's mean_average_precision_at_k,
restated below, on label texts split as upstream's graders split them
(`str.split(" ")`, answers turned into sets).

Output, one case after another:
  case <k> <n_actual> <n_predicted>
  a h<hex of answer text>          (n_actual lines)
  p h<hex of prediction text>      (n_predicted lines)
  r <repr of the score>
"""
import random
import sys

import numpy as np


def average_precision_at_k(actual, predicted, k):
    # Upstream's mlebench.metrics.average_precision_at_k, line for line.
    if len(predicted) > k:
        predicted = predicted[:k]
    score = 0.0
    num_hits = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            num_hits += 1.0
            score += num_hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def mean_average_precision_at_k(actual, predicted, k):
    return np.mean([average_precision_at_k(a, p, k) for a, p in zip(actual, predicted)])


LABELS = ["w_1", "w_2", "w_3", "new_whale", "7", "7.0", "nan", "", "x"]


def text(rng, max_labels):
    return " ".join(rng.choice(LABELS) for _ in range(rng.randint(1, max_labels)))


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    out = []
    sizes = [1, 2, 3, 5, 10, 100, 1000] * 30 + [10000, 100000]
    for index, n in enumerate(sizes):
        k = rng.choice([1, 2, 3, 5, 5, 5, 10])
        # Mostly aligned rows; some lists of other lengths (zip truncates), and
        # first an empty prediction list (np.mean([]) is NaN).
        n_pred = n if rng.random() < 0.9 else rng.randint(0, n + 2)
        if index == 0:
            n_pred = 0
        answers = [text(rng, 2) for _ in range(n)]
        predictions = [text(rng, 8) for _ in range(n_pred)]
        actual = [set(t.split(" ")) for t in answers]
        predicted = [t.split(" ") for t in predictions]
        with np.errstate(all="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                score = mean_average_precision_at_k(actual, predicted, k)
        out.append(f"case {k} {n} {n_pred}")
        out.extend("a h" + t.encode().hex() for t in answers)
        out.extend("p h" + t.encode().hex() for t in predictions)
        out.append(f"r {float(score)!r}")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


main()
