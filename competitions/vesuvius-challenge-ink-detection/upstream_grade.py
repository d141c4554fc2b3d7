"""Upstream's grade() for vesuvius-challenge-ink-detection (the row-count
check, then per row, paired with the answers by position through iterrows:
grade_row's index, Id and string checks, rle_decode of the transposed image
and sklearn's fbeta_score(beta=0.5) on the flattened masks; np.mean over
rows), restated, on scikit-learn 1.5.1, numpy 1.26.4 and pandas 2.2.2 of the
reference environment. Cases: one to a few fragments of several sizes;
empty, full, identical, shifted and disjoint ink (ill-defined precision and
recall); broken RLE; missing Predicted cells and numeric columns; rows out of
order (positional ids), dropped, duplicated and foreign ids; missing, renamed
and extra columns; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
import warnings

from sklearn.metrics import fbeta_score

MIN_SCORED = 128
MIN_RAISED = 64


decode = rle_decode


def score_row(row, answer):
    assert set(answer.index) == {"Id", "Predicted", "width", "height"}
    if len(row) != 2:
        raise ValueError("indices")
    if not set(row.index).issuperset({"Id", "Predicted"}):
        raise ValueError("columns")
    assert row["Id"] == answer["Id"]
    if not isinstance(row["Predicted"], str):
        raise ValueError("not a string")
    assert isinstance(answer["Predicted"], str)
    width, height = int(answer["width"]), int(answer["height"])
    # Rows-first RLE: decode the transposed image, then transpose back.
    predicted = decode(row["Predicted"], height=width, width=height).T
    truth = decode(answer["Predicted"], height=width, width=height).T
    assert predicted.shape == (height, width) == truth.shape
    y_pred = predicted.flatten().astype(bool)
    y_true = truth.flatten().astype(bool)
    return fbeta_score(y_true=y_true, y_pred=y_pred, beta=0.5)


def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("rows")
    with warnings.catch_warnings():  # ill-defined precision or recall; mean of nothing
        warnings.simplefilter("ignore")
        scores = [score_row(row, answer)
                  for (_, row), (_, answer) in zip(submission.iterrows(), answers.iterrows())]
        return np.mean(scores)


def runs(pixels, count):
    """A valid RLE of up to `count` sorted, disjoint runs within `pixels`."""
    cuts = sorted(rng.sample(range(1, pixels + 1), min(2 * count, pixels)))
    pairs = [(cuts[i], cuts[i + 1] - cuts[i] + 1) for i in range(0, len(cuts) - 1, 2)]
    return " ".join(f"{s} {n}" for s, n in pairs)


def predicted_rle(truth, pixels):
    r = rng.random()
    if r < 0.2:
        return truth
    if r < 0.3:
        return " "
    if r < 0.35:
        return f"1 {pixels}"
    if r < 0.5:
        values = [int(v) for v in truth.split()]
        values[-2] += rng.choice([1, 3])
        return " ".join(map(str, values))
    if r < 0.56:
        return rng.choice(["1 1 5 2", "3", "1 2 3", "5 2 1 2", "1 3 2 2", "0 1", "1 0", "x 1",
                           "1.5 2", f"{pixels + 3} 2", f"{pixels - 1} 9", "1 1 5 2 9", "",
                           "NA", "None", "nan", "null"])
    return runs(pixels, rng.randint(1, 12))


def make_case(k):
    n = rng.choice([1, 1, 1, 2, 3, 6])
    ids = "abcdef"[:n]
    sizes = [rng.choice([(20, 30), (1, 40), (17, 9), (50, 50)]) for _ in ids]
    if k % 50 == 9:
        sizes = [(600, 500)] * n
    truth = [runs(w * h, rng.randint(1, 15)) for w, h in sizes]
    answers = csv_text("Id,Predicted,width,height",
                       [[i, t, str(w), str(h)] for i, t, (w, h) in zip(ids, truth, sizes)])
    sub = [[i, predicted_rle(t, w * h)] for i, t, (w, h) in zip(ids, truth, sizes)]
    r = rng.random()
    if r < 0.3:
        sub = spoil(sub, lambda: rng.choice(["g", "1", "A"]))
    header = "Id,Predicted"
    r = rng.random()
    if r < 0.04:
        header = "Predicted,Id"
        sub = [[p, i] for i, p in sub]
    elif r < 0.07:
        header = "Id,Prediction"
    elif r < 0.1:
        header = "Id,Predicted,extra"
        sub = [row + ["0"] for row in sub]
    elif r < 0.13:
        sub = [[i, str(rng.randint(1, 9))] for i, _ in sub]  # numbers, not RLE text
    elif r < 0.14:
        sub = []
    elif r < 0.16:
        header = "Predicted"
        sub = [[p] for _, p in sub]
    return answers, csv_text(header, sub)
