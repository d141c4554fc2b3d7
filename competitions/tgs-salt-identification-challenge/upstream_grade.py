"""Upstream's grade() for tgs-salt-identification-challenge (fillna, the
all-strings check, sort by id, rle_decode of 101 x 101 masks, then the mean of
iou_metric: np.histogram2d / np.histogram IoU precision over the thresholds
np.arange(0.5, 1.0, 0.05)), restated, on numpy 1.26.4 and pandas 2.2.2 of the
reference environment. Cases: empty, full and more-than-half masks (the
constant-mask histogram quirk), odd value counts, unsorted, overlapping,
zero-length, negative, non-integer, underscored and out-of-image runs; ids
that read as numbers; dropped, duplicated and foreign ids; wrong, missing and
extra columns; rle_mask columns of bare numbers. See
//tools/upstream_grade:driver.py for the names this script is given."""
import warnings

PIXELS_SIDE = 101
MIN_SCORED = 100
MIN_RAISED = 90


def decode(rle, height, width):
    # mlebench.competitions.utils.rle_decode: 1-based column-major runs.
    assert isinstance(rle, str)
    if not rle.strip():
        return np.zeros((height, width), dtype=bool)
    values = [int(token) for token in rle.split()]
    starts, lengths = values[0::2], values[1::2]
    assert starts == sorted(starts)
    assert all(v > 0 for v in starts) and all(v > 0 for v in lengths)
    begins = np.array(starts) - 1
    ends = begins + lengths  # numpy broadcasting: odd counts may raise
    flat = np.zeros(height * width, dtype=bool)
    for lo, hi in zip(begins, ends):
        assert not flat[lo:hi].any()
        flat[lo:hi] = True
    return flat.reshape((width, height)).T


def precision_of(truth, predicted):
    # upstream's iou_metric: a single object, histogram-based IoU.
    if np.sum(truth) == 0:
        return 1.0 if np.sum(predicted) == 0 else 0.0
    joint = np.histogram2d(truth.flatten(), predicted.flatten(), bins=(2, 2))[0]
    true_area = np.expand_dims(np.histogram(truth, bins=2)[0], -1)
    predicted_area = np.expand_dims(np.histogram(predicted, bins=2)[0], 0)
    union = (true_area + predicted_area - joint)[1:, 1:]
    overlap = joint[1:, 1:]
    union[union == 0] = 1e-9
    iou = overlap / union
    precisions = []
    for threshold in np.arange(0.5, 1.0, 0.05):
        hits = iou > threshold
        tp = np.sum(np.sum(hits, axis=1) == 1)
        fp = np.sum(np.sum(hits, axis=0) == 0)
        fn = np.sum(np.sum(hits, axis=1) == 0)
        precisions.append(tp / (tp + fp + fn) if tp + fp + fn > 0 else 0)
    return np.mean(precisions)


def grade(submission, answers):
    columns = {"id", "rle_mask"}
    assert set(answers.columns) == columns
    if set(submission.columns) != columns:
        raise ValueError("columns")
    if len(submission) != len(answers):
        raise ValueError("rows")
    submission = submission.fillna("")
    answers = answers.fillna("")
    assert answers.map(lambda v: isinstance(v, str)).values.all()
    if not submission.map(lambda v: isinstance(v, str)).values.all():
        raise ValueError("not strings")
    submission = submission.sort_values(by="id")
    answers = answers.sort_values(by="id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    predicted = np.array([decode(r, PIXELS_SIDE, PIXELS_SIDE) for r in submission["rle_mask"]])
    truth = np.array([decode(r, PIXELS_SIDE, PIXELS_SIDE) for r in answers["rle_mask"]])
    with warnings.catch_warnings():  # np.histogram's bool-to-uint8 notice
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.mean([precision_of(truth[i], predicted[i]) for i in range(len(truth))])


N = PIXELS_SIDE * PIXELS_SIDE


def runs(count):
    """A valid RLE of `count` sorted, disjoint runs within the image."""
    cuts = sorted(rng.sample(range(1, N + 1), 2 * count))
    pairs = [(cuts[i], cuts[i + 1] - cuts[i] + 1) for i in range(0, len(cuts) - 1, 2)]
    return " ".join(f"{s} {n}" for s, n in pairs)


def true_mask():
    r = rng.random()
    if r < 0.3:
        return ""
    if r < 0.4:
        return f"1 {N}"
    if r < 0.55:
        return f"1 {rng.randint(N // 2 - 3, N - 1)}"  # more than half: the quirk
    return runs(rng.randint(1, 8))


def predicted_mask(truth):
    r = rng.random()
    if r < 0.2:
        return truth
    if r < 0.35:
        return ""
    if r < 0.4:
        return f"1 {N}"
    if r < 0.46 and truth:
        values = truth.split()
        values[-1] = str(int(values[-1]) + rng.choice([-2, -1, 1, 3]))
        return " ".join(v if int(v) > 0 else "1" for v in values)
    if r < 0.52:
        return rng.choice([
            "5", "3 4 10", "1 2 3 4 5", "10 5 1 5", "1 10 5 5", "1 0", "0 5", "-1 3", "1 -3",
            "1.0 5", "1 5.5", "abc", "1 1e2", "1_0 5", "+1 5", "10200 50", "20000 5",
            "5 9223372036854775807", "1 5 1 5", "1 5 6 5", f"{N} 1", f"{N + 1} 7",
            "1\t5", "  ", "7 3 20000 1 20000 1", "1__0 5", "1_ 5", "NA", "None", "nan", "null",
            "#N/A", "n/a", "1 5 ",
        ])
    return runs(rng.randint(1, 8))


def new_id():
    r = rng.random()
    if r < 0.03:
        return str(rng.randint(0, 10 ** 9))  # reads as a number
    if r < 0.05:
        return f"{rng.randint(1, 99)}e{rng.randint(1, 9)}"
    return f"{rng.getrandbits(40):010x}"


def make_case(k):
    n = rng.choice([1, 2, 3, 5, 10, 40]) if k % 50 else 400
    ids = [f"{rng.getrandbits(40):010x}" for _ in range(n)]
    truth = [true_mask() for _ in ids]
    rows = spoil([[i, predicted_mask(t)] for i, t in zip(ids, truth)], new_id)
    header = "id,rle_mask"
    r = rng.random()
    if r < 0.04:
        header = "id,rle_mask,extra"
        rows = [row + ["1"] for row in rows]
    elif r < 0.07:
        header = "id,mask"
    elif r < 0.1:
        header = "rle_mask,id"
        rows = [[m, i] for i, m in rows]
    elif r < 0.13:
        rows = [[i, str(rng.randint(1, 99))] for i, _ in rows]  # numbers, not text
    elif r < 0.15:
        rows = []
    return csv_text("id,rle_mask", [[i, t] for i, t in zip(ids, truth)]), csv_text(header, rows)
