"""Upstream's grade() for aptos2019-blindness-detection (its
prepare_for_grading: the `diagnosis` column, a non-empty submission, the same
set of id_codes, both sorted by id_code; then cohen_kappa_score(y_pred,
y_true, weights="quadratic")), restated, on the reference environment's
pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1. Cases: 12-hex id_codes
(some all digits or float-like such as "123e4", so pandas reads numbers;
foreign, repeated, dropped, missing), diagnoses 0-4 or a single grade (NaN
kappa), constant predictions, grades the answers lack (sklearn weighs label
positions), predictions as "2.0", "1e0", "-0", "7", "2.5", "1e300", "inf",
"", text and booleans; a missing id_code or diagnosis column, extra columns,
header-only and empty files.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import cohen_kappa_score

MIN_SCORED = 108
MIN_RAISED = 75

ID, TARGET = "id_code", "diagnosis"


def grade(submission, answers):
    if TARGET not in submission.columns:
        raise ValueError("no diagnosis column")
    assert TARGET in answers.columns
    if submission.empty:
        raise ValueError("empty")
    assert not answers.empty
    if set(submission[ID]) != set(answers[ID]):
        raise ValueError("ids")
    y_pred = submission.sort_values(by=ID)[TARGET].values
    y_true = answers.sort_values(by=ID)[TARGET].values
    return cohen_kappa_score(y_pred, y_true, weights="quadratic")


ODD = ["2.0", "1e0", "-0", "7", "-1", "2.5", "1e300", "9007199254740993", "inf", "", "abc",
       "True", " 3"]


def new_id():
    r = rng.random()
    if r < 0.03:
        return f"{rng.getrandbits(36):012d}"
    if r < 0.05:
        return f"{rng.randint(0, 9999)}e{rng.randint(0, 400)}"
    return f"{rng.getrandbits(48):012x}"


def diagnosis(pool, truth):
    r = rng.random()
    if r < 0.03:
        return rng.choice(ODD)
    if r < 0.55:
        return truth
    return str(rng.choice(pool if rng.random() < 0.8 else range(5)))


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 400]) if k % 50 else 3000
    pool = rng.sample(range(5), rng.choice([1, 2, 3, 5, 5]))
    ids = list(dict.fromkeys(new_id() for _ in range(n)))
    truth = [str(rng.choice(pool)) for _ in ids]
    rows = [[i, diagnosis(pool, t)] for i, t in zip(ids, truth)]
    if k % 13 == 3:
        constant = rng.choice(["0", "2", "4.0", "True"])
        rows = [[i, constant] for i, _ in rows]
    rows = spoil(rows, lambda: rng.choice([new_id(), "", ids[0].upper()]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},Diagnosis", f"id,{TARGET}", TARGET])
        if header == TARGET:
            rows = [[r[1]] for r in rows]
    elif k % 17 == 9:
        header, rows = f"{TARGET},{ID},extra", [[p, i, "z"] for i, p in rows]
    answers = csv_text(f"{ID},{TARGET}", [[i, t] for i, t in zip(ids, truth)])
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
