"""Upstream's grade() (its prepare_for_metric, log_loss), restated line for
line, on pandas 2.2.2 and scikit-learn 1.5.1 of the reference environment,
on random answers and submissions: exact 0s and 1s (clipping), out-of-range,
missing and text values, dropped, duplicated and foreign ids, one-class
answers. Same score bit for bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import log_loss

MIN_SCORED = 51
MIN_RAISED = 21

def grade(submission, answers):
    if "id" not in submission.columns or "is_iceberg" not in submission.columns:
        raise ValueError("missing column")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    if not ((submission["is_iceberg"] >= 0) & (submission["is_iceberg"] <= 1)).all():
        raise ValueError("range")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    return log_loss(answers["is_iceberg"], submission["is_iceberg"])

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["1.5", "-0.1"])
    if r < 0.2: return rng.choice(["0", "1", "0.0", "1.0", "1e-20"])
    return repr(round(rng.random(), rng.choice([2, 5, 17])))

def make_case(case):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = [f"{rng.getrandbits(32):08x}" for _ in range(n)]
    labels = [str(int(rng.random() < 0.5)) for _ in ids]
    if case % 19 == 4:
        labels = ["1"] * n  # one class in y_true
    subs = spoil([[i, pred()] for i in ids], lambda: f"{rng.getrandbits(32):08x}")
    answers = [[i, l] for i, l in zip(ids, labels)]
    return csv_text("id,is_iceberg", answers), csv_text("id,is_iceberg", subs)
