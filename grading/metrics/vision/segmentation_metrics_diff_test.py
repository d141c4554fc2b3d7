"""Usage: segmentation_metrics_diff_test.py <cases file> [seed]

Random RLE strings and mask pairs for segmentation_metrics_diff_test, with
the results of a numpy restatement of upstream's rle_decode
(mlebench/competitions/utils.py), dice_coefficient (mlebench/metrics.py) and
the TGS grader's iou_metric (np.histogram2d included, for its quirks).
Non-ASCII digits (which int() accepts and DecodeRle rejects, a documented
deviation) and values outside int64 are not generated.

Output lines:
  d <pixel count> h<hex of the RLE text> ok <begin> <end> ...   (0-based runs)
  d <pixel count> h<hex of the RLE text> err
  p <pixel count> h<hex of true RLE> h<hex of predicted RLE> <dice> <iou score>
"""
import math
import random
import sys

import warnings

import numpy as np

warnings.simplefilter("ignore")  # histogram of bools converts to uint8, as upstream


def decode(rle, height, width):
    """rle_decode's steps: int() tokens, its three asserts, numpy runs."""
    assert isinstance(rle, str)
    if not rle.strip():
        return np.zeros((height, width), dtype=bool)
    values = [int(token) for token in rle.split()]
    starts, lengths = values[0::2], values[1::2]
    assert starts == sorted(starts)
    assert all(v > 0 for v in starts)
    assert all(v > 0 for v in lengths)
    begins = np.array(starts) - 1
    ends = begins + lengths  # broadcasting raises for odd counts above one
    flat = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(begins, ends):
        assert not flat[lo:hi].any()
        flat[lo:hi] = True
    return flat.reshape((width, height)).T


def dice(predicted, truth):
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return 1.0
    return 2 * np.sum(predicted * truth) / (np.sum(predicted) + np.sum(truth))


def iou_score(truth, predicted):
    if np.sum(truth) == 0:
        return 1.0 if np.sum(predicted) == 0 else 0.0
    both = np.histogram2d(truth.flatten(), predicted.flatten(), bins=(2, 2))[0]
    area_true = np.expand_dims(np.histogram(truth, bins=2)[0], -1)
    area_pred = np.expand_dims(np.histogram(predicted, bins=2)[0], 0)
    union = (area_true + area_pred - both)[1:, 1:]
    union[union == 0] = 1e-9
    iou = both[1:, 1:] / union
    scores = []
    for t in np.arange(0.5, 1.0, 0.05):
        matches = iou > t
        tp = np.sum(np.sum(matches, axis=1) == 1)
        fp = np.sum(np.sum(matches, axis=0) == 0)
        fn = np.sum(np.sum(matches, axis=1) == 0)
        scores.append(tp / (tp + fp + fn) if tp + fp + fn > 0 else 0)
    return np.mean(scores)


def runs_of(flat):
    padded = np.concatenate([[False], flat, [False]])
    changes = np.flatnonzero(padded[1:] != padded[:-1])
    return [int(x) for x in changes]


def encode(mask):
    """Column-major RLE text of a (height, width) mask."""
    changes = runs_of(mask.T.flatten())
    return " ".join(f"{changes[i] + 1} {changes[i + 1] - changes[i]}"
                    for i in range(0, len(changes), 2))


SPACES = [" ", "  ", "\t", "\n", "\xa0", "\u3000", "\x1c"]


def spelling(rng, value):
    text = str(value)
    roll = rng.random()
    if roll < 0.03:
        return "+" + text
    if roll < 0.06 and len(text) > 1:
        return text[0] + "_" + text[1:]
    if roll < 0.08:
        return "0" + text
    return text


def random_rle(rng, n):
    kind = rng.random()
    if kind < 0.05:
        return rng.choice(["", " ", "\t\n", "5", "0", "x", "1 1.5", "1 _1", "1__1 1", "-3 2",
                           "1 0", "1 2 5", "1 2 5 1 9", "1 1 1 1", str(n + 5), "1 " + str(2**62)])
    count = rng.randint(1, 12)
    values, position = [], rng.randint(0, n + 2)
    for _ in range(count):
        start = position + 1
        length = rng.randint(1, max(1, n // 4)) if rng.random() < 0.95 else 2**61
        values += [start, length]
        position = start - 1 + length + rng.randint(0, max(1, n // 6))
    roll = rng.random()
    if roll < 0.1 and len(values) > 2:  # overlap or unsorted
        i = 2 * rng.randrange(1, len(values) // 2)
        values[i] = max(1, values[i] - rng.randint(1, n))
    elif roll < 0.15:
        values.pop()
    elif roll < 0.18:
        values = values[:3]
    elif roll < 0.2:
        values[rng.randrange(len(values))] = rng.choice([0, -1])
    out = spelling(rng, values[0])
    for v in values[1:]:
        out += rng.choice(SPACES) if rng.random() < 0.1 else " "
        out += spelling(rng, v)
    if rng.random() < 0.1:
        out = " " + out + "\n"
    return out


def random_size(rng, largest):
    n = int(round(10 ** rng.uniform(0, math.log10(largest))))  # math: numpy's log10 is CPU-dependent
    height = rng.randint(1, max(1, int(n ** 0.5) * 2))
    width = max(1, n // height)
    return height, width


def random_mask(rng, height, width):
    roll = rng.random()
    if roll < 0.1:
        return np.zeros((height, width), dtype=bool)
    if roll < 0.2:
        return np.ones((height, width), dtype=bool)
    mask = np.zeros((height, width), dtype=bool)
    for _ in range(rng.randint(1, 4)):
        r0, c0 = rng.randrange(height), rng.randrange(width)
        mask[r0:r0 + rng.randint(1, height), c0:c0 + rng.randint(1, width)] = True
    if rng.random() < 0.5:
        noise = np.random.RandomState(rng.randrange(2**31)).rand(height, width) < rng.random() * 0.3
        mask ^= noise
    return mask


def perturbed(rng, mask):
    roll = rng.random()
    if roll < 0.15:
        return mask.copy()
    if roll < 0.25:
        return np.zeros_like(mask) if rng.random() < 0.5 else np.ones_like(mask)
    flips = np.random.RandomState(rng.randrange(2**31)).rand(*mask.shape) < rng.random() * 0.4
    return mask ^ flips


def main():
    seed = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else 0
    rng = random.Random(seed)
    with open(sys.argv[1], "w") as out:
        for _ in range(3000):
            height, width = random_size(rng, 2000)
            rle = random_rle(rng, height * width)
            hex_rle = rle.encode("utf-8").hex()
            try:
                flat = decode(rle, height, width).T.flatten()
                out.write(f"d {height * width} h{hex_rle} ok {' '.join(map(str, runs_of(flat)))}\n")
            except Exception:  # any exception is a rejected submission upstream
                out.write(f"d {height * width} h{hex_rle} err\n")
        for _ in range(400):
            height, width = random_size(rng, 100000)
            truth = random_mask(rng, height, width)
            predicted = perturbed(rng, truth)
            true_rle, predicted_rle = encode(truth), encode(predicted)
            assert (decode(true_rle, height, width) == truth).all()
            out.write(f"p {height * width} h{true_rle.encode().hex()} h{predicted_rle.encode().hex()} "
                      f"{float(dice(predicted, truth))!r} {float(iou_score(truth, predicted))!r}\n")


if __name__ == "__main__":
    main()
