"""Upstream's grade() for hubmap-kidney-segmentation (its prepare_for_metric:
column, row-count and id-set checks, sort by id, fillna, rles_to_masks with
the answers' height_pixels and width_pixels; then np.mean of
mlebench.metrics' dice_coefficient with both_empty_value 1.0), restated, on
numpy 1.26.4 and pandas 2.2.2 of the reference environment. Cases: images of
several (small) sizes, empty, full, identical, shifted and disjoint masks;
odd value counts, unsorted, overlapping, zero-length, non-integer and
out-of-image runs; numeric predicted columns; dropped, duplicated and foreign
ids; missing and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 130
MIN_RAISED = 60


decode = rle_decode


def dice(predicted, truth):
    # mlebench.metrics.dice_coefficient with both_empty_value 1.0.
    assert predicted.shape == truth.shape
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return 1.0
    both = np.sum(predicted * truth)
    total = np.sum(predicted) + np.sum(truth)
    if total == 0:
        return 1.0
    return 2 * both / total


def grade(submission, answers):
    if "id" not in submission.columns or "predicted" not in submission.columns:
        raise ValueError("columns")
    for name in ["id", "encoding", "width_pixels", "height_pixels"]:
        assert name in answers.columns
    if len(submission) != len(answers):
        raise ValueError("rows")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    submission = submission.sort_values("id").reset_index(drop=True)
    answers = answers.sort_values("id").reset_index(drop=True)
    submission["predicted"] = submission["predicted"].fillna("")
    heights = answers["height_pixels"].tolist()
    widths = answers["width_pixels"].tolist()
    predicted = [decode(r, h, w) for r, h, w in zip(submission["predicted"], heights, widths)]
    truth = [decode(r, h, w) for r, h, w in zip(answers["encoding"], heights, widths)]
    return np.mean([dice(p, t) for p, t in zip(predicted, truth)])


SIZES = [(30, 40), (1, 50), (64, 64), (7, 3), (100, 90)]


def runs(pixels, count):
    """A valid RLE of up to `count` sorted, disjoint runs within `pixels`."""
    cuts = sorted(rng.sample(range(1, pixels + 1), min(2 * count, pixels)))
    pairs = [(cuts[i], cuts[i + 1] - cuts[i] + 1) for i in range(0, len(cuts) - 1, 2)]
    return " ".join(f"{s} {n}" for s, n in pairs)


def predicted_rle(truth, pixels):
    r = rng.random()
    if r < 0.25:
        return truth
    if r < 0.35:
        return ""
    if r < 0.4:
        return f"1 {pixels}"
    if r < 0.55 and truth:
        values = [int(v) for v in truth.split()]
        values[-2] += 1  # the last run one pixel later
        return " ".join(map(str, values))
    if r < 0.58:
        return rng.choice(["1 1 5 2", "3", "1 2 3", "5 2 1 2", "1 3 2 2", "0 1", "1 0", "x 1",
                           "1.5 2", f"{pixels + 3} 2", f"{pixels - 1} 9", "1 1 5 2 9", "1_2 3",
                           "NA", "None", "nan", "null"])
    return runs(pixels, rng.randint(1, 20))


def new_id():
    return f"{rng.getrandbits(36):09x}"


def make_case(k):
    n = rng.choice([1, 2, 3, 5, 8, 20])
    ids = [new_id() for _ in range(n)]
    sizes = [rng.choice(SIZES) if k % 60 else (1000, 1200) for _ in ids]
    truth = [runs(h * w, rng.randint(1, 30)) for h, w in sizes]
    if k % 25 == 3:
        truth[0] = ""  # no glomeruli: upstream's answers are not filled
    answers = csv_text("id,encoding,width_pixels,height_pixels",
                       [[i, t, str(w), str(h)] for i, t, (h, w) in zip(ids, truth, sizes)])
    sub = [[i, predicted_rle(t, h * w)] for i, t, (h, w) in zip(ids, truth, sizes)]
    sub = spoil(sub, new_id)
    header = "id,predicted"
    r = rng.random()
    if r < 0.04:
        header = "predicted,id"
        sub = [[p, i] for i, p in sub]
    elif r < 0.07:
        header = "id,encoding"
    elif r < 0.1:
        header = "id,predicted,extra"
        sub = [row + ["0"] for row in sub]
    elif r < 0.13:
        sub = [[i, str(rng.randint(1, 9))] for i, _ in sub]  # numbers, not RLE text
    elif r < 0.14:
        sub = []
    return answers, csv_text(header, sub)
