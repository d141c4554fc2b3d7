"""Upstream's grade() for spooky-author-identification (prepare_for_metric, its
one_hot_dfs_to_log_loss_inputs helper, then log_loss on the one-hot answers),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: soft, hard and uniform rows; zeros (clipped); row
sums either side of isclose's tolerance; NaN, text, negative, above-one and inf
cells; the checks that look at columns by position (id not first, columns
renamed, reordered, missing or extra); dropped, duplicated and foreign ids;
empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 85
MIN_RAISED = 100

CLASSES = ["EAP", "HPL", "MWS"]


one_hot_log_loss_inputs = one_hot_log_loss_inputs


def grade(submission, answers):
    if submission.shape != (len(answers), len(CLASSES) + 1):
        raise ValueError("shape")
    values = submission.iloc[:, 1:]  # by position, whatever the names
    if not np.all(np.isclose(values.sum(axis=1), 1, atol=1e-6)):
        raise ValueError("rows must sum to one")
    if not ((values >= 0) & (values <= 1)).all().all():
        raise ValueError("range")
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, "id")
    return log_loss(y_true=y_true, y_pred=y_pred)


def probabilities(style, truth):
    if style == "hard":
        return ["1" if c == truth else "0" for c in range(3)]
    if style == "uniform":
        return [repr(1 / 3)] * 3
    a, b = sorted([rng.random(), rng.random()])
    p = [a, b - a, 1 - b]
    if style == "rounded":  # sums off one by up to 1.5e-4, 1.5e-5 or 1.5e-6
        digits = rng.choice([4, 5, 6])
        return [repr(round(x, digits)) for x in p]
    return [repr(x) for x in p]


def new_id():
    return f"id{rng.randrange(100000):05d}"


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 5000
    ids = [f"id{i:05d}" for i in rng.sample(range(100000), n)]
    truth = [rng.randrange(3) for _ in ids]
    if k % 13 == 6:
        truth = [0] * n  # one author only
    answers = [[i] + ["1" if c == t else "0" for c in range(3)] for i, t in zip(ids, truth)]
    style = rng.choice(["soft", "soft", "hard", "uniform", "rounded"])
    rows = [[i] + probabilities(style, t) for i, t in zip(ids, truth)]
    if rng.random() < 0.25:  # one bad cell
        rows[0][rng.randrange(1, 4)] = rng.choice(
            ["", "abc", "nan", "inf", "1.5", "-0.1", "-0.0", "1e-300", "1.0000004"])
    elif rng.random() < 0.1:  # out of range, summing to one
        rows[-1][1:] = rng.sample(["1.25", "-0.25", "0"], 3)
    rows = spoil(rows, new_id)
    header = ["id"] + CLASSES
    r = rng.random()
    if r < 0.04:
        drop = rng.randrange(4)
        header = header[:drop] + header[drop + 1:]
        rows = [row[:drop] + row[drop + 1:] for row in rows]
    elif r < 0.08:  # reordered: id first or not
        order = rng.choice([[0, 3, 1, 2], [1, 0, 2, 3], [2, 3, 1, 0]])
        header = [header[o] for o in order]
        rows = [[row[o] for o in order] for row in rows]
    elif r < 0.1:  # shape right, a class renamed
        header = ["id", "EAP", "HPL", "Shelley"]
    elif r < 0.12:
        header, rows = header + ["text"], [row + ["a"] for row in rows]
    elif r < 0.14:
        rows = []
    return csv_text("id,EAP,HPL,MWS", answers), csv_text(",".join(header), rows)
