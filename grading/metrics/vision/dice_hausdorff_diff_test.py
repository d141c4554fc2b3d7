"""Usage: dice_hausdorff_diff_test.py <cases file> [seed]

Random cases for dice_hausdorff_diff_test with the results of a numpy/scipy
restatement of the UW-Madison GI tract grader (upstream's grade.py:
group_masks_by_day, hausdorff_distance with scipy's directed_hausdorff, the
nanmean-weighted combination; rle_decode from mlebench/competitions/utils.py).

Output lines (text fields hex-encoded, prefixed with "h"):
  v <S H W of predicted> <S H W of truth> h<predicted voxels> h<true voxels> <distance|nan>
      voxels: '0'/'1' per voxel in C order (slice, row, column)
  g <answer rows> <submission rows> [h<id> h<rle> <height> <width>]... [h<id> h<rle>]...
      <score|nan|err>
"""
import random
import sys

import warnings

import numpy as np
from scipy.spatial.distance import directed_hausdorff

warnings.simplefilter("ignore")  # nanmean of all-NaN warns, as upstream


def hexed(text):
    return "h" + text.encode("utf-8").hex()


def decode(rle, height, width):
    """rle_decode: int() tokens, sorted/positive/non-overlapping asserts, column-major."""
    assert isinstance(rle, str)
    if not rle.strip():
        return np.zeros((height, width), dtype=bool)
    values = [int(token) for token in rle.split()]
    starts, lengths = values[0::2], values[1::2]
    assert starts == sorted(starts)
    assert all(v > 0 for v in starts) and all(v > 0 for v in lengths)
    begins = np.array(starts) - 1
    ends = begins + lengths
    flat = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(begins, ends):
        assert not flat[lo:hi].any()
        flat[lo:hi] = True
    return flat.reshape((width, height)).T


def encode(mask):
    """Column-major RLE text of a 2-D mask."""
    flat = mask.T.flatten()
    out, i = [], 0
    while i < len(flat):
        if flat[i]:
            j = i
            while j < len(flat) and flat[j]:
                j += 1
            out += [str(i + 1), str(j - i)]
            i = j
        else:
            i += 1
    return " ".join(out)


def by_day(masks, ids):
    """group_masks_by_day restated: stable sort by id, OR per id, stack per case-day."""
    pairs = sorted(zip(masks, ids), key=lambda pair: pair[1])
    per_slice, slice_order = {}, []
    for mask, slice_id in pairs:
        if slice_id not in per_slice:
            per_slice[slice_id] = []
            slice_order.append(slice_id)
        per_slice[slice_id].append(mask)
    per_day, day_order = {}, []
    for slice_id in slice_order:
        day = slice_id.split("_slice_")[0]
        if day not in per_day:
            per_day[day] = []
            day_order.append(day)
        per_day[day].append(np.logical_or.reduce(per_slice[slice_id]).astype(np.uint8))
    return [np.stack(per_day[day], axis=0) for day in day_order]


def hausdorff(pred, true):
    if pred.sum() == 0 and true.sum() == 0:
        return np.nan
    if np.array_equal(pred, true):
        return 0
    if pred.sum() == 0 or true.sum() == 0:
        return 1
    if pred.sum() > 10 * true.sum():
        return 1
    scale = true.shape
    a = np.argwhere(true) / scale
    b = np.argwhere(pred) / scale
    d = max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0])
    return d / np.sqrt(3)


def dice(pred, true):
    if np.sum(pred) == 0 and np.sum(true) == 0:
        return np.nan
    return 2 * np.sum(pred * true) / (np.sum(pred) + np.sum(true))


def score(sub_ids, sub_rles, ans_ids, ans_rles, heights, widths):
    sub_masks = [decode(r, h, w) for r, h, w in zip(sub_rles, heights, widths)]
    ans_masks = [decode(r, h, w) for r, h, w in zip(ans_rles, heights, widths)]
    sub_days = by_day(sub_masks, sub_ids)
    ans_days = by_day(ans_masks, ans_ids)
    d = np.nanmean([dice(s, a) for s, a in zip(sub_masks, ans_masks)])
    hd = np.nanmean([hausdorff(s, a) for s, a in zip(sub_days, ans_days)])
    return 0.4 * d + 0.6 * (1 - hd)


def fmt(x):
    return "nan" if np.isnan(x) else repr(float(x))


def random_volume(rng, shape, style):
    if style == "empty":
        return np.zeros(shape, dtype=np.uint8)
    if style == "sparse":
        return (np.array([rng.random() < 0.05 for _ in range(int(np.prod(shape)))])
                .reshape(shape).astype(np.uint8))
    if style == "blob":
        grid = np.indices(shape).astype(float)
        center = [rng.uniform(0, n) for n in shape]
        radius = [rng.uniform(0.5, n / 2 + 0.5) for n in shape]
        inside = sum(((g - c) / r) ** 2 for g, c, r in zip(grid, center, radius)) <= 1
        return inside.astype(np.uint8)
    return (np.array([rng.random() < 0.5 for _ in range(int(np.prod(shape)))])
            .reshape(shape).astype(np.uint8))


def volume_case(rng, out, large):
    limit = (12, 40, 40) if large else (5, 7, 7)
    true_shape = tuple(rng.randint(1, n) for n in limit)
    pred_shape = true_shape if rng.random() < 0.7 else tuple(rng.randint(1, n) for n in limit)
    styles = ["empty", "sparse", "blob", "dense"]
    truth = random_volume(rng, true_shape, rng.choice(styles))
    r = rng.random()
    if r < 0.15 and pred_shape == true_shape:
        pred = truth.copy()
    elif r < 0.5 and pred_shape == true_shape and truth.any():
        pred = truth.copy()
        for _ in range(rng.randint(1, 4)):  # flip a few voxels
            index = tuple(rng.randrange(n) for n in true_shape)
            pred[index] ^= 1
    else:
        pred = random_volume(rng, pred_shape, rng.choice(styles))
    voxels = lambda v: "".join(str(int(x)) for x in v.flatten())
    out.write(" ".join(["v", *map(str, pred.shape), *map(str, truth.shape), hexed(voxels(pred)),
                        hexed(voxels(truth)), fmt(hausdorff(pred, truth))]) + "\n")


def grade_case(rng, out):
    answers = []  # (id, rle, height, width)
    for case in rng.sample(range(1, 40), rng.randint(1, 3)):
        for day in rng.sample(range(1, 12), rng.randint(1, 2)):
            height, width = rng.randint(1, 6), rng.randint(1, 6)
            if rng.random() < 0.3:
                height, width = 4, 5
            for slice_number in rng.sample(range(1, 30), rng.randint(1, 4)):
                slice_id = f"case{case}_day{day}_slice_{slice_number:04d}"
                for _ in range(3):  # the three organ classes share an id
                    mask = random_volume(rng, (height, width), rng.choice(["empty", "empty",
                                                                           "sparse", "blob"]))
                    answers.append((slice_id, encode(mask), height, width))
    rng.shuffle(answers) if rng.random() < 0.3 else None
    submission = []
    for slice_id, rle, height, width in answers:
        r = rng.random()
        if r < 0.3:
            submission.append((slice_id, rle))
        elif r < 0.9:
            mask = random_volume(rng, (height, width), rng.choice(["empty", "sparse", "blob"]))
            submission.append((slice_id, encode(mask)))
        else:
            submission.append((slice_id, rng.choice(["1 1 5 2", "", "3 2 1 1", "1 0", "2 1 2 1",
                                                     "1", "1 1 1", "1 2 3"])))
    r = rng.random()
    if r < 0.15:
        rng.shuffle(submission)
    elif r < 0.25:
        submission = submission[:rng.randint(0, len(submission))]
    elif r < 0.35:
        submission += [(f"case99_day1_slice_{i:04d}", "1 1") for i in range(rng.randint(1, 3))]
    elif r < 0.45 and submission:
        i = rng.randrange(len(submission))
        submission[i] = (rng.choice(["case0_day0_slice_0001", answers[0][0], "x", ""]),
                         submission[i][1])
    try:
        result = fmt(score([s[0] for s in submission], [s[1] for s in submission],
                           [a[0] for a in answers], [a[1] for a in answers],
                           [a[2] for a in answers], [a[3] for a in answers]))
    except (AssertionError, ValueError):
        result = "err"
    fields = ["g", str(len(answers)), str(len(submission))]
    for slice_id, rle, height, width in answers:
        fields += [hexed(slice_id), hexed(rle), str(height), str(width)]
    for slice_id, rle in submission:
        fields += [hexed(slice_id), hexed(rle)]
    out.write(" ".join(fields + [result]) + "\n")


def main():
    seed = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else 20261129
    rng = random.Random(seed)
    with open(sys.argv[1], "w") as out:
        for i in range(1500):
            volume_case(rng, out, large=i % 10 == 0)
        for _ in range(400):
            grade_case(rng, out)


if __name__ == "__main__":
    main()
