"""Upstream's grade() (prepare_for_auroc_metric, roc_auc_score), restated line
for line, on pandas 2.2.2 and scikit-learn 1.5.1 of the reference
environment, on random answers and submissions: tied and rounded scores,
out-of-range, missing and text values, dropped, duplicated and foreign ids,
one-class answers. Same score bit for bit, or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
from sklearn.metrics import roc_auc_score

MIN_SCORED = 51
MIN_RAISED = 21

def grade(submission, answers):
    id_col, target_col = "id", "label"
    if id_col not in submission.columns or target_col not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    pd.to_numeric(submission[target_col])
    if submission[target_col].min() < 0 or submission[target_col].max() > 1:
        raise ValueError("range")
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if (submission[id_col].values != answers[id_col].values).any():
        raise ValueError("ids")
    return roc_auc_score(y_true=answers[target_col].to_numpy(),
                         y_score=submission[target_col].to_numpy())

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["1.5", "-0.1"])
    if r < 0.3: return rng.choice(["0", "1", "0.5", "0.25"])
    return repr(round(rng.random(), rng.choice([1, 3, 17])))

def make_case(case):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = ["%040x" % rng.getrandbits(160) for _ in range(n)]
    labels = [str(int(rng.random() < rng.choice([0.1, 0.4]))) for _ in ids]
    if case % 19 == 4:
        labels = ["1"] * n  # one class only: roc_auc_score raises
    subs = spoil([[i, pred()] for i in ids], lambda: "%040x" % rng.getrandbits(160))
    answers = [[i, l] for i, l in zip(ids, labels)]
    return csv_text("id,label", answers), csv_text("id,label", subs)
