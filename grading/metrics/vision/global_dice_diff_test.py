"""Usage: global_dice_diff_test.py <cases file> [seed]

Random sets of mask pairs for global_dice_diff_test, with the global Dice of
a numpy restatement of upstream's contrails grader: the masks stacked with
np.array, ravelled, then mlebench.metrics.dice_coefficient (NaN when nothing
is set anywhere).

Output lines (one per case, every image of a case has the same shape):
  g <pixel count> <image count> h<hex true RLE> h<hex predicted RLE> ... <dice>
"""
import random
import sys

import numpy as np


def dice_coefficient(predicted, truth, both_empty_value=np.nan):
    assert predicted.shape == truth.shape
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return both_empty_value
    intersection = np.sum(predicted * truth)
    union = np.sum(predicted) + np.sum(truth)
    if union == 0:
        return both_empty_value
    return 2 * intersection / union


def encode(mask):
    """Column-major RLE text of a (height, width) mask."""
    flat = mask.T.flatten()
    padded = np.concatenate([[False], flat, [False]])
    changes = [int(x) for x in np.flatnonzero(padded[1:] != padded[:-1])]
    return " ".join(f"{changes[i] + 1} {changes[i + 1] - changes[i]}"
                    for i in range(0, len(changes), 2))


def random_mask(rng, height, width):
    roll = rng.random()
    if roll < 0.3:
        return np.zeros((height, width), dtype=bool)
    if roll < 0.35:
        return np.ones((height, width), dtype=bool)
    state = np.random.RandomState(rng.randrange(2**31))
    return state.rand(height, width) < rng.random() * 0.5


def main():
    seed = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else 0
    rng = random.Random(seed)
    with open(sys.argv[1], "w") as out:
        for _ in range(500):
            n = int(round(10 ** rng.uniform(0, 4)))
            height = rng.randint(1, max(1, int(n ** 0.5) * 2))
            width = max(1, n // height)
            count = rng.choice([0, 1, 1, 2, 3, 5, 8, 13])
            truths = [random_mask(rng, height, width) for _ in range(count)]
            preds = [random_mask(rng, height, width) if rng.random() < 0.5
                     else truths[i] ^ (np.random.RandomState(rng.randrange(2**31))
                                       .rand(height, width) < rng.random() * 0.3)
                     for i in range(count)]
            score = dice_coefficient(np.array(truths).ravel(), np.array(preds).ravel())
            fields = [f"h{encode(t).encode().hex()} h{encode(p).encode().hex()}"
                      for t, p in zip(truths, preds)]
            out.write(f"g {height * width} {count} {' '.join(fields)} {float(score)!r}\n")


if __name__ == "__main__":
    main()
