"""Upstream's grade() for lmsys-chatbot-arena (prepare_for_metric, its
one_hot_dfs_to_log_loss_inputs helper, then log_loss on the one-hot answers),
restated, on the reference environment's pandas 2.2.2, numpy 1.26.4 and
scikit-learn 1.5.1. Cases: soft, hard and uniform rows; zeros (clipped); rows
rounded so that their sums land either side of round(6) == 1; NaN, text,
negative, above-one and inf cells; True/False columns; missing, extra and
reordered columns; dropped, duplicated and foreign ids; empty submissions.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 95
MIN_RAISED = 95

CLASSES = ["winner_model_a", "winner_model_b", "winner_tie"]
REQUIRED = ["id"] + CLASSES
MODELS = ["gpt-4-1106-preview", "claude-2.1", "llama-2-70b-chat"]


one_hot_log_loss_inputs = one_hot_log_loss_inputs


def grade(submission, answers):
    if any(c not in submission.columns for c in REQUIRED):
        raise ValueError("missing columns")
    assert set(REQUIRED).issubset(answers.columns)
    if len(submission) != len(answers):
        raise ValueError("length")
    values = submission[CLASSES]
    if not ((values >= 0) & (values <= 1)).all().all():
        raise ValueError("range")
    if not values.sum(axis=1).round(6).eq(1).all():
        raise ValueError("rows must sum to 1")
    submission = submission[REQUIRED].sort_values("id").reset_index(drop=True)
    answers = answers[REQUIRED].sort_values("id").reset_index(drop=True)
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    y_true, y_pred = one_hot_log_loss_inputs(submission, answers, "id")
    return log_loss(y_true=y_true, y_pred=y_pred)


def probabilities(style, truth):
    if style == "hard":
        return ["1" if c == truth else "0" for c in range(3)]
    if style == "uniform":
        return [repr(1 / 3)] * 3
    a, b = sorted([rng.random(), rng.random()])
    p = [a, b - a, 1 - b]
    if style == "rounded":  # sums of 0.9999995 and the like, either side of round(6)
        digits = rng.choice([6, 7, 8])
        return [repr(round(x, digits)) for x in p]
    return [repr(x) for x in p]


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k else 5000
    ids = rng.sample(range(30000, 30000 + 40 * n), n)
    truth = [rng.randrange(3) for _ in ids]
    answers = [[str(i), rng.choice(MODELS), rng.choice(MODELS)]
               + ["1" if c == t else "0" for c in range(3)] for i, t in zip(ids, truth)]
    style = rng.choice(["soft", "soft", "hard", "uniform", "rounded", "rounded"])
    rows = [[str(i)] + probabilities(style, t) for i, t in zip(ids, truth)]
    if rng.random() < 0.25:  # one bad cell
        rows[0][rng.randrange(1, 4)] = rng.choice(
            ["", "abc", "nan", "inf", "1.5", "-0.1", "-0.0", "1e-300", "1.0000004"])
    if k % 29 == 7:  # a column of True/False (pandas reads it as bool), the rest in the others
        c = rng.randrange(1, 4)
        for row in rows:
            others = [o for o in range(1, 4) if o != c]
            a = rng.random()
            if rng.random() < 0.3:
                row[c], row[others[0]], row[others[1]] = rng.choice(["True", "TRUE"]), "0", "0"
            else:
                row[c], row[others[0]], row[others[1]] = "False", repr(a), repr(1 - a)
    rows = spoil(rows, lambda: str(rng.randrange(10**7)))
    header = list(REQUIRED)
    r = rng.random()
    if r < 0.04:
        drop = rng.randrange(4)
        header = header[:drop] + header[drop + 1:]
        rows = [row[:drop] + row[drop + 1:] for row in rows]
    elif r < 0.1:  # reordered, an extra column
        order = [3, 1, 0, 2]
        header = [header[o] for o in order] + ["model_a"]
        rows = [[row[o] for o in order] + ["gpt-4"] for row in rows]
    elif r < 0.12:
        rows = []
    answers_header = "id,model_a,model_b," + ",".join(CLASSES)
    return csv_text(answers_header, answers), csv_text(",".join(header), rows)
