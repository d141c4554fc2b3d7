"""Upstream's grade() for hotel-id-2021-fgvc8 (its prepare_for_metric: the
same image set and length, sort, astype(str).str.split(" "); then
mlebench.metrics.mean_average_precision_at_k with k=5), restated, on the
reference environment's numpy 1.26.4 and pandas 2.2.2. Cases: hotel ids
right, later in the list, past the fifth place or repeated; a hotel_id column
that reads as int64 (one guess each) or float64 (a missing cell: "123.0" and
"nan"); zero-padded, signed and text tokens; double and trailing spaces
(empty tokens); dropped, duplicated and foreign images; missing and extra
columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 150
MIN_RAISED = 35


average_precision = average_precision


def grade(submission, answers):
    if "image" not in submission.columns or "hotel_id" not in submission.columns:
        raise ValueError("missing column")
    if set(submission["image"]) != set(answers["image"]):
        raise ValueError("ids")
    if len(submission) != len(answers):
        raise ValueError("length")
    submission = submission.sort_values("image").reset_index(drop=True)
    answers = answers.sort_values("image").reset_index(drop=True)
    predicted = submission["hotel_id"].astype(str).str.split(" ").tolist()
    actual = answers["hotel_id"].astype(str).str.split(" ").apply(set).tolist()
    return np.mean([average_precision(a, p, 5) for a, p in zip(actual, predicted)])


def image():
    return f"{rng.getrandbits(64):016x}.jpg"


def guess(truth, hotels):
    r = rng.random()
    if r < 0.2:
        tokens = [truth]
    else:
        tokens = [rng.choice(hotels) for _ in range(rng.choice([1, 3, 5, 5, 7]))]
        if r < 0.7:
            tokens.insert(rng.randint(0, len(tokens)), truth)
    if rng.random() < 0.05:
        tokens[0] = rng.choice(["0" + truth, "+" + truth, "x", truth + ".0"])
    if rng.random() < 0.1:
        tokens.insert(0, tokens[-1])  # a repeat counts once
    text = " ".join(tokens)
    if rng.random() < 0.05:
        text = text.replace(" ", "  ", 1) + rng.choice(["", " "])  # empty tokens
    return text


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    hotels = [str(rng.randrange(0, 100000)) for _ in range(rng.choice([2, 20, 200]))]
    images = [image() for _ in range(n)]
    truths = [rng.choice(hotels) for _ in images]
    rows = [[i, guess(t, hotels)] for i, t in zip(images, truths)]
    if k % 5 == 1:
        rows = [[i, t if rng.random() < 0.5 else rng.choice(hotels)]
                for (i, _), t in zip(rows, truths)]  # one guess each: int64
        if rng.random() < 0.5:
            rows[rng.randrange(n)][1] = ""  # float64: "123.0" and "nan"
    rows = spoil(rows, lambda: rng.choice([image(), ""]))
    header = "image,hotel_id"
    if k % 29 == 11:
        header = rng.choice(["image,hotel_ids", "Image,hotel_id"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "image,hotel_id,chain", [r + ["3"] for r in rows]
    answers = csv_text("image,hotel_id", [[i, t] for i, t in zip(images, truths)])
    return answers, csv_text(header, rows)
