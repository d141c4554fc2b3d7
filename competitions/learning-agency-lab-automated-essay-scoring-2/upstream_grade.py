"""Upstream's grade() for learning-agency-lab-automated-essay-scoring-2 (its
prepare_for_grading: the answers' columns and rows asserted, the `score` and
`essay_id` columns, a non-empty submission, both sorted by essay_id and the
ids equal row by row; then cohen_kappa_score(y_pred, y_true,
weights="quadratic")), restated, on the reference environment's pandas
2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: 7-hex essay ids (some all
digits or float-like such as "12e4", so pandas reads numbers; foreign,
repeated, dropped, missing), scores 1-6 or a single score (NaN kappa),
constant predictions, scores the answers lack (sklearn weighs label
positions), predictions as "2.0", "1e0", "-0", "7", "2.5", "1e300", "inf", "",
text and booleans; one-row submissions (numpy broadcasts the id comparison),
a missing essay_id or score column, extra columns, header-only and empty
files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import cohen_kappa_score

MIN_SCORED = 102
MIN_RAISED = 82

ID, TARGET = "essay_id", "score"


def grade(submission, answers):
    assert TARGET in answers.columns and ID in answers.columns and not answers.empty
    if TARGET not in submission.columns:
        raise ValueError("no score column")
    if ID not in submission.columns:
        raise ValueError("no essay_id column")
    if submission.empty:
        raise ValueError("empty")
    submission = submission.sort_values(by=ID)
    answers = answers.sort_values(by=ID)
    if (submission[ID].values != answers[ID].values).any():
        raise ValueError("ids")
    return cohen_kappa_score(submission[TARGET].values, answers[TARGET].values,
                             weights="quadratic")


ODD = ["2.0", "1e0", "-0", "7", "-1", "2.5", "1e300", "9007199254740993", "inf", "", "abc",
       "True", " 3"]


def new_id():
    r = rng.random()
    if r < 0.03:
        return f"{rng.getrandbits(20):07d}"
    if r < 0.05:
        return f"{rng.randint(0, 99)}e{rng.randint(0, 400)}"
    return f"{rng.getrandbits(28):07x}"


def score(pool, truth):
    r = rng.random()
    if r < 0.03:
        return rng.choice(ODD)
    if r < 0.55:
        return truth
    return str(rng.choice(pool if rng.random() < 0.8 else range(1, 7)))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(range(1, 7), rng.choice([1, 2, 3, 6, 6]))
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [str(rng.choice(pool)) for _ in ids]
    rows = [[i, score(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        constant = rng.choice(["1", "3", "6.0", "True"])
        rows = [[i, constant] for i, _ in rows]
    rows = spoil(rows, lambda: rng.choice([new_id(), "", ids[0].upper()]))
    if k % 19 == 11:
        rows = rows[:1]  # numpy compares one id with all the answers'
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},Score", f"id,{TARGET}", TARGET])
        if header == TARGET:
            rows = [[r[1]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
