"""Upstream's grade() for google-research-identify-contrails-reduce-global-warming
(column and row-count checks, sort by record_id, the elementwise id check,
replace("-", ""), rle_decode with the answers' sizes (its decoded lists named
the other way round), then mlebench.metrics' dice_coefficient of all pixels
at once, NaN when both sides are empty), restated, on numpy 1.26.4 and
pandas 2.2.2 of the reference environment. Cases: 19-digit record ids (and
ids spelled as floats, which numpy compares as float64), "-" and empty
cells, empty, full, identical, shifted and foreign masks, broken RLE,
dropped, duplicated and foreign ids, missing and extra columns.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 95
MIN_RAISED = 95


decode = rle_decode


def dice(predicted, truth):
    # mlebench.metrics.dice_coefficient, both_empty_value NaN.
    assert predicted.shape == truth.shape
    if np.sum(predicted) == 0 and np.sum(truth) == 0:
        return np.nan
    both = np.sum(predicted * truth)
    total = np.sum(predicted) + np.sum(truth)
    if total == 0:
        return np.nan
    return 2 * both / total


def grade(submission, answers):
    assert set(answers.columns) == {"record_id", "encoded_pixels", "height", "width"}
    if not {"record_id", "encoded_pixels"}.issubset(set(submission.columns)):
        raise ValueError("columns")
    if len(submission) != len(answers):
        raise ValueError("rows")
    submission = submission.sort_values(by="record_id")
    answers = answers.sort_values(by="record_id")
    if (submission["record_id"].values != answers["record_id"].values).any():
        raise ValueError("ids")
    submission["encoded_pixels"] = submission["encoded_pixels"].replace("-", "")
    answers["encoded_pixels"] = answers["encoded_pixels"].replace("-", "")
    sizes = list(zip(answers["height"].values, answers["width"].values))
    # Upstream decodes the answers first (inside its try) and the submission
    # second; an exception from either is an invalid submission here.
    truth = np.array([decode(r, int(h), int(w))
                      for r, (h, w) in zip(answers["encoded_pixels"].values, sizes)])
    predicted = np.array([decode(r, int(h), int(w))
                          for r, (h, w) in zip(submission["encoded_pixels"].values, sizes)])
    return dice(predicted.ravel(), truth.ravel())


def runs(pixels, count):
    """A valid RLE of up to `count` sorted, disjoint runs within `pixels`."""
    cuts = sorted(rng.sample(range(1, pixels + 1), min(2 * count, pixels)))
    pairs = [(cuts[i], cuts[i + 1] - cuts[i] + 1) for i in range(0, len(cuts) - 1, 2)]
    return " ".join(f"{s} {n}" for s, n in pairs)


def true_rle(pixels):
    r = rng.random()
    if r < 0.5:
        return "-"
    if r < 0.55:
        return f"1 {pixels}"
    return runs(pixels, rng.randint(1, 6))


def predicted_rle(truth, pixels):
    r = rng.random()
    if r < 0.25:
        return truth
    if r < 0.45:
        return "-"
    if r < 0.48:
        return rng.choice([" ", "", "-1 1"]) if rng.random() < 0.3 else "-"
    if r < 0.5:
        return f"1 {pixels}"
    if r < 0.6 and truth != "-":
        values = [int(v) for v in truth.split()]
        values[-2] += rng.choice([1, 2])
        return " ".join(map(str, values))
    if r < 0.62:
        return rng.choice(["1 1 5 2", "3", "1 2 3", "5 2 1 2", "1 3 2 2", "0 1", "1 0", "x 1",
                           "1.5 2", f"{pixels + 3} 2", f"{pixels - 1} 9", "1 1 5 2 9", "--",
                           "NA", "None", "nan", "null", " - "])
    return runs(pixels, rng.randint(1, 6))


def new_id():
    return str(rng.randrange(10 ** 18, 9 * 10 ** 18))


def make_case(k):
    n = rng.choice([1, 2, 3, 5, 10, 30]) if k % 50 else 300
    ids = [new_id() for _ in range(n)]
    h, w = rng.choice([(16, 16), (8, 12), (1, 7), (32, 20)])
    truth = [true_rle(h * w) for _ in ids]
    if k % 10 == 7:
        truth = ["-"] * n  # no contrail anywhere
    answers = csv_text("record_id,encoded_pixels,height,width",
                       [[i, t, str(h), str(w)] for i, t in zip(ids, truth)])
    sub = [[i, predicted_rle(t, h * w)] for i, t in zip(ids, truth)]
    if k % 10 == 7 and rng.random() < 0.6:
        sub = [[i, "-"] for i, _ in sub]
    sub = spoil(sub, new_id)
    header = "record_id,encoded_pixels"
    r = rng.random()
    if r < 0.04:
        header = "encoded_pixels,record_id"
        sub = [[p, i] for i, p in sub]
    elif r < 0.07:
        header = "record_id,rle"
    elif r < 0.1:
        header = "record_id,encoded_pixels,height"
        sub = [row + [str(h)] for row in sub]
    elif r < 0.14:
        sub = [[i + ".0", p] for i, p in sub]  # float ids: numpy compares as float64
    elif r < 0.16 and sub:
        sub[0][0] = str(int(sub[0][0]) + 1) + ".0"  # equal to its neighbour in float64
    elif r < 0.17:
        sub = []
    return answers, csv_text(header, sub)
