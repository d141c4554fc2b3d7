"""Upstream's grade() (prepare_for_metric, pearsonr), restated,
on pandas 2.2.2 and scipy 1.14.1 of the reference environment, on random
answers and submissions: rounded and tied scores, constant sides (NaN),
missing and text values, dropped, duplicated and foreign ids. Same score
bit for bit (NaN with NaN), or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from scipy.stats import pearsonr

MIN_SCORED = 51
MIN_RAISED = 21

def grade(submission, answers):
    if len(submission) != len(answers):
        raise ValueError("length")
    if not set(["id", "score"]).issubset(submission.columns):
        raise ValueError("columns")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    if (submission["id"].values != answers["id"].values).any():
        raise ValueError("ids")
    return pearsonr(answers["score"].to_numpy(), submission["score"].to_numpy())[0]

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.3: return rng.choice(["0", "0.25", "0.5", "0.75", "1", "2", "-1"])
    return repr(round(rng.uniform(-0.2, 1.2), rng.choice([2, 5, 17])))

def make_case(case):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = [f"{rng.getrandbits(64):016x}" for _ in range(n)]
    truth = [rng.choice(["0.0", "0.25", "0.5", "0.75", "1.0"]) for _ in ids]
    if case % 19 == 4:
        truth = ["0.5"] * n  # constant answers: NaN
    subs = spoil([[i, pred()] for i in ids], lambda: f"{rng.getrandbits(64):016x}")
    if case % 23 == 9:
        subs = [[i, "0.5"] for i, _ in subs]  # constant predictions: NaN
    answers = [[i, "anchor", "target", "A47", t] for i, t in zip(ids, truth)]
    return csv_text("id,anchor,target,context,score", answers), csv_text("id,score", subs)
