"""Upstream's grade() for whale-categorization-playground (its
prepare_for_metric: exactly the columns Image and Id, the same length and
image set, sort, astype(str).str.split(" "); then
mlebench.metrics.mean_average_precision_at_k with k=5), restated, on the
reference environment's numpy 1.26.4 and pandas 2.2.2. Cases: whale ids and
new_whale right, later in the list, past the fifth place or repeated; case
changes; empty and NA cells ("nan"), all-empty columns (float64 NaN) and
numeric tokens; double and trailing spaces (empty tokens); dropped,
duplicated and foreign images; columns missing, extra, renamed or in another
order; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
MIN_SCORED = 145
MIN_RAISED = 40


average_precision = average_precision


def grade(submission, answers):
    if set(submission.columns) != {"Image", "Id"}:
        raise ValueError("columns")
    if len(submission) != len(answers):
        raise ValueError("length")
    if set(submission["Image"]) != set(answers["Image"]):
        raise ValueError("ids")
    submission = submission.sort_values("Image").reset_index(drop=True)
    answers = answers.sort_values("Image").reset_index(drop=True)
    actual = answers["Id"].astype(str).str.split(" ").apply(set).tolist()
    predicted = submission["Id"].astype(str).str.split(" ").tolist()
    return np.mean([average_precision(a, p, 5) for a, p in zip(actual, predicted)])


def image():
    return f"{rng.getrandbits(32):08x}.jpg"


def guess(truth, whales, faults):
    r = rng.random()
    if r < faults:
        return rng.choice(["", "NA", "nan"])
    if r < 0.2:
        tokens = [truth]
    else:
        tokens = [rng.choice(whales) for _ in range(rng.choice([1, 3, 5, 5, 7]))]
        if r < 0.7:
            tokens.insert(rng.randint(0, len(tokens)), truth)
    if rng.random() < 0.05:
        tokens[0] = rng.choice([tokens[0].upper(), "1", "nan"])
    if rng.random() < 0.1:
        tokens.insert(0, tokens[-1])  # a repeat counts once
    text = " ".join(tokens)
    if rng.random() < 0.05:
        text = text.replace(" ", "  ", 1) + rng.choice(["", " "])  # empty tokens
    return text


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 3000
    whales = ["new_whale"] + [f"w_{rng.getrandbits(28):07x}" for _ in range(rng.choice([2, 30]))]
    images = [image() for _ in range(n)]
    truths = [rng.choice(whales) for _ in images]
    faults = 0.05 if k % 3 else 0.0
    rows = [[i, guess(t, whales, faults)] for i, t in zip(images, truths)]
    if k % 23 == 8:
        rows = [[i, ""] for i, _ in rows]  # a float64 column of NaN: "nan"
    rows = spoil(rows, lambda: rng.choice([image(), ""]))
    header = "Image,Id"
    if k % 29 == 11:
        header = rng.choice(["Image,id", "image,Id"])
    if k % 31 == 13:
        rows = []
    if k % 37 == 17:
        header, rows = "Image,Id,Score", [r + ["1"] for r in rows]
    if k % 41 == 19:
        header, rows = "Id,Image", [r[::-1] for r in rows]  # order is free
    answers = csv_text("Image,Id", [[i, t] for i, t in zip(images, truths)])
    return answers, csv_text(header, rows)
