"""Upstream's grade() for uw-madison-gi-tract-image-segmentation (its
prepare_for_metric: fillna, astype(int), rles_to_masks with the answers'
sizes, group_masks_by_day; then 0.4 * np.nanmean of mlebench.metrics'
dice_coefficient per row plus 0.6 * (1 - np.nanmean of the normalised
symmetric scipy directed_hausdorff per case-day)), restated, on numpy 1.26.4,
scipy 1.14.1 and pandas 2.2.2 of the reference environment. Cases: several
cases, days and slices of several sizes, three classes a slice; empty,
identical, shifted, oversized and foreign masks; rows in the answers' order
or shuffled (positional pairing, masks of different shapes stacked together),
dropped or extra rows (zip truncation), foreign and numeric ids, missing ids,
broken RLE and numeric predicted columns, missing columns.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from scipy.spatial.distance import directed_hausdorff

MIN_SCORED = 135
MIN_RAISED = 55


decode = rle_decode


def by_day(masks, ids):
    # group_masks_by_day: OR the masks of a slice id, stack a case-day's slices.
    slices = {}
    for mask, slice_id in sorted(zip(masks, ids), key=lambda pair: pair[1]):
        slices.setdefault(slice_id, []).append(mask)
    days = {}
    for slice_id, group in slices.items():
        day = slice_id.split("_slice_")[0]
        days.setdefault(day, []).append(np.logical_or.reduce(group).astype(np.uint8))
    return [np.stack(volume, axis=0) for volume in days.values()]


def dice(predicted, truth):
    # mlebench.metrics.dice_coefficient with both_empty_value NaN.
    assert predicted.shape == truth.shape
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return np.nan
    both = np.sum(predicted * truth)
    total = np.sum(predicted) + np.sum(truth)
    if total == 0:
        return np.nan
    return 2 * both / total


def hausdorff(predicted, truth):
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return np.nan
    if np.array_equal(predicted, truth):
        return 0
    if (np.sum(predicted) == 0) != (np.sum(truth) == 0):
        return 1
    if predicted.sum() > 10 * truth.sum():
        return 1
    scale = truth.shape
    true_points = np.argwhere(truth) / scale
    predicted_points = np.argwhere(predicted) / scale
    forward = directed_hausdorff(true_points, predicted_points)[0]
    backward = directed_hausdorff(predicted_points, true_points)[0]
    return max(forward, backward) / np.sqrt(3)


def grade(submission, answers):
    assert "image_height" in answers.columns and "image_width" in answers.columns
    if not {"id", "class", "predicted"}.issubset(set(submission.columns)):
        raise ValueError("columns")
    submission["predicted"] = submission["predicted"].fillna("")
    answers["predicted"] = answers["predicted"].fillna("")
    heights = answers["image_height"].astype(int).tolist()
    widths = answers["image_width"].astype(int).tolist()
    predicted = [decode(r, h, w) for r, h, w in zip(submission["predicted"], heights, widths)]
    truth = [decode(r, h, w) for r, h, w in zip(answers["predicted"], heights, widths)]
    predicted_days = by_day(predicted, submission["id"])
    true_days = by_day(truth, answers["id"])
    with warnings.catch_warnings():  # nanmean of nothing but NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        mean_dice = np.nanmean([dice(p, t) for p, t in zip(predicted, truth)])
        mean_distance = np.nanmean([hausdorff(p, t) for p, t in zip(predicted_days, true_days)])
    return 0.4 * mean_dice + 0.6 * (1 - mean_distance)


CLASSES = ["large_bowel", "small_bowel", "stomach"]
SIZES = [(6, 6), (5, 8), (8, 5), (7, 7)]


def runs(pixels):
    """A valid RLE: a few sorted, disjoint runs within `pixels`."""
    count = rng.choice([1, 1, 2, 3])
    cuts = sorted(rng.sample(range(1, pixels + 1), min(2 * count, pixels)))
    pairs = [(cuts[i], cuts[i + 1] - cuts[i] + 1) for i in range(0, len(cuts) - 1, 2)]
    return " ".join(f"{s} {n}" for s, n in pairs)


def true_rle(pixels):
    r = rng.random()
    if r < 0.45:
        return ""
    if r < 0.5:
        return f"1 {pixels}"
    if r < 0.6:
        return f"{rng.randint(1, pixels)} 1"
    return runs(pixels)


def predicted_rle(truth, pixels):
    r = rng.random()
    if r < 0.3:
        return truth
    if r < 0.45:
        return ""
    if r < 0.5 and truth:
        values = [int(v) for v in truth.split()]
        values[0] = max(1, values[0] + rng.choice([-1, 1, 2]))
        return " ".join(map(str, values))
    if r < 0.53:
        return f"1 {pixels}"
    return runs(pixels)


def odd_rle(pixels):
    return rng.choice(["1 1 5 2", "3", "1 2 3", "5 2 1 2", "1 3 2 2", "0 1", "1 0", "x 1",
                       "1.5 2", f"{pixels + 3} 2", f"{pixels - 1} 9", "1 1 5 2 9", "NA", "None",
                       "nan", "null"])


def make_case(k):
    rows = []
    for case in rng.sample(range(1, 160), rng.choice([1, 1, 2, 3])):
        for day in rng.sample(range(1, 40), rng.choice([1, 1, 2])):
            h, w = rng.choice(SIZES)
            if k % 40 == 1:
                h, w = 40, 50
            slices = sorted(rng.sample(range(1, 145), rng.choice([1, 2, 3, 5])))
            for s in slices:
                for c in CLASSES:
                    rows.append([f"case{case}_day{day}_slice_{s:04d}", c, true_rle(h * w), h, w])
    if rng.random() < 0.2:
        rng.shuffle(rows)
    answers = csv_text("id,class,predicted,image_width,image_height",
                       [[i, c, t, f"{w}.0", f"{h}.0"] for i, c, t, h, w in rows])
    sub = [[i, c, predicted_rle(t, h * w)] for i, c, t, h, w in rows]
    if rng.random() < 0.15:
        row = rng.randrange(len(sub))
        sub[row][2] = odd_rle(rows[row][3] * rows[row][4])
    if rng.random() < 0.3:
        sub = spoil(sub, lambda: f"case{rng.randint(1, 9)}_day{rng.randint(1, 9)}_slice_0001")
    r = rng.random()
    header = "id,class,predicted"
    if r < 0.03:
        header = "id,predicted,class"
        sub = [[i, p, c] for i, c, p in sub]
    elif r < 0.06:
        header = "id,klass,predicted"
    elif r < 0.09:
        sub = [[i, c, str(rng.randint(1, 5))] for i, c, _ in sub]  # numbers, not RLE text
    elif r < 0.11:
        sub[0][0] = ""  # a missing id
    elif r < 0.13:
        sub = [[str(n), c, p] for n, (_, c, p) in enumerate(sub)]  # numeric ids
    elif r < 0.15:
        sub = sub + sub[:rng.randint(1, 3)]  # extra rows: zip ignores them
    elif r < 0.17:
        sub = sub[:-rng.randint(1, 2)]  # rows short: zip truncates
    elif r < 0.18:
        sub = []
    return answers, csv_text(header, sub)
